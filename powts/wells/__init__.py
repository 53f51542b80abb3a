"""Well contamination compensation claims (Wis. Stat. s. 281.75), as DNR receives, completes, decides and pays them.

Choices where the text is silent (each also said where it is made):
- A claim is complete when the affidavit ((5)(a)), test results or the department's advisory ((5)(b)1.),
  the tax returns ((4m)(c)) and some eligible cost are in; it becomes complete on the day the last item
  arrives, or the day DNR marks it complete ((5)(c)). It is decided only then ("may not proceed").
- Consolidation ((5)(e)): claims on one supply join the first claim received for it; that claim carries
  the decision and the payment, the others are "consolidated" and are never paid on their own.
- Order of payment ((5)(f)): by the day the claim became complete, then the day it was received, then the
  order received; conditionally approved claims are paid first by the next run, in that order; strict
  order: once one claim waits, every later claim waits behind it. A claim paid by one run is not in later runs.
- A dug well is refused at intake: "Well" does not include dug wells ((1)(h)), so no claim may be submitted
  for it ((3)(a)).
"""
