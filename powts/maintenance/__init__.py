"""The maintenance program (Wis. Stat. s. 145.20(5); SPS 383.255, 383.54(4), 383.55; Dane County Code
s. 46.06(5), 46.11(5); Lincoln County Ch. 22 (draft), SYSTEM MANAGEMENT AND MAINTENANCE).

    profile.py    the county's maintenance.yaml, checked (every parameter cited)
    rules.py      due dates from type, dates and reports (no Django)
    models.py     Schedule (one indexed row per system), Report, ServicingContract, HoldingTankReport, Notice
    services.py   every write, audited in its transaction; notices.py, letters.py: notice batches and PDFs
    selectors.py  the due list, dashboard counts, a system's maintenance
    csv_upload.py a pumper's CSV; annual.py the SPS 383.255 summary; demo.py data for the demo county
    `powts maintenance due | notices send | sync | reports upload | annual-report | demo`
"""
