"""The tests of a Wisconsin Fund grant decision, in the order of the bits of a batch's `failed`
column: batch.py sets the bits, render.py words them (one list for both)."""

TESTS = ["category", "installed_before", "principal_residence", "small_commercial", "income_limit",
         "revenue_limit", "not_sewered", "determined_before_work", "application_window", "one_grant",
         "not_intentional", "support_lien", "minimum_grant"]
BIT = {k: 1 << i for i, k in enumerate(TESTS)}
# a business is not tested on principal residence, family income or the minimum grant; a residence is
# not tested on flow or revenue
RESIDENCE_TESTS = [k for k in TESTS if k not in ("small_commercial", "revenue_limit")]
BUSINESS_TESTS = [k for k in TESTS if k not in ("principal_residence", "income_limit", "minimum_grant")]
