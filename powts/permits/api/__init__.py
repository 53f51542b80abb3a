"""The permits REST API: serializers (shapes), views (permits, fees, inspections), site (soil, clearances,
emergency work, failing systems, orders, variances), open311 (public complaints), urls."""
