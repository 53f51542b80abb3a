"""Wisconsin Fund grants (Wis. Stat. s. 145.245 / s. 145.246) as records: owners' applications,
the county's decisions (by the law engine in powts/law), letters; the county's certification and
the department's allocation and payments live in models/program.py."""
