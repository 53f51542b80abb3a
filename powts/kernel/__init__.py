"""The kernel: cited, dated values, money, dates and county profiles, read from YAML. No Django.

Every reader of a parameter or profile file goes through here, so a bad file is refused one way,
naming file, line and problem. See README.md.
"""
