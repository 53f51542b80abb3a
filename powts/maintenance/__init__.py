"""The maintenance program (Wis. Stat. s. 145.20(5); SPS 383.255, 383.54(4), 383.55; each county's
ordinance as its profile's maintenance.yaml cites it).

    profile.py    the county's maintenance.yaml, checked (every parameter cited)
    rules.py      due dates from type, dates and reports (no Django)
    models.py     Schedule (one indexed row per system), Report, ServicingContract, HoldingTankReport, Notice
    services.py   every write, audited in its transaction; notices.py, letters.py: notice batches and PDFs
    selectors.py  the due list, dashboard counts, a system's maintenance
    csv_upload.py a pumper's CSV; annual.py the SPS 383.255 summary; demo.py data for the demo county
    `powts maintenance due | notices send | sync | reports upload | annual-report | demo`
"""
