app_name = "maintenance"
urlpatterns = []
