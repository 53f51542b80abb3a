"""API routes of this app, mounted under /api/ (see powts/urls.py)."""
urlpatterns = []
