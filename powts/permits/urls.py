app_name = "permits"
urlpatterns = []
