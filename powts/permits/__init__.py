"""Sanitary permits from application to final inspection, per county ordinance.

- rules.py: permit and fee rules read from the county profile (permits.yaml, fees.yaml); no Django.
- models.py: Permit (with documents, timeline events, written notices, changes), Invoice/Payment,
  Inspection, SoilEvaluation, FailureDetermination, CorrectionOrder, Variance, Clearance,
  EmergencyWork, Complaint.
- services/ (one module per concern: applications, review, changes, suspension, fees, inspections, site,
  enforcement) are the only writers; selectors.py the reads. Each service validates against the profile,
  refuses with the rule and its citation, and audits in the same transaction.
- api/ (REST: serializers, views, site, open311 GeoReport v2, urls), views.py (web), documents.py
  (permit card PDF, iCalendar feed), exports.py (BLDS, CSV, JSON), demo.py (demo permits).
"""
