"""The web import as a background job: the confirmed upload, saved in the data directory, is
imported by a worker while its job page shows the rows checked; the counts and rejected rows come after.
Safe to run again: the import writes the whole file in one transaction, and a file imported again
changes nothing (every row unchanged)."""
from __future__ import annotations

import json
from pathlib import Path

from django.conf import settings

from powts.audit.choices import Channel
from powts.core.refusals import Refused

KIND = "inventory.import"


def uploads() -> Path:
    folder = Path(settings.MEDIA_ROOT) / "imports"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def import_upload(job, progress) -> dict:
    """Keyed by the upload: once its import has committed, the outcome is kept with the upload's note, so a
    run after a crash (between the commit and the job's "done") reports it instead of importing again."""
    from powts.inventory.importing.service import import_inventory

    token, suffix, name = job.params["token"], job.params["suffix"], job.params["name"]
    stored, meta_path = uploads() / f"{token}{suffix}", uploads() / f"{token}.json"
    meta = json.loads(meta_path.read_text()) if meta_path.exists() else {}
    if meta.get("result"):
        return meta["result"]
    if not stored.exists():
        raise Refused("The uploaded file is no longer kept; upload it again.", field="file")
    progress(done=0, step="checking rows")
    result = import_inventory(path=stored, jurisdiction=job.jurisdiction, rejects_path=stored.with_suffix(".rejects.csv"),
                              source_name=name, actor=job.started_by, channel=Channel.WEB,
                              columns=job.params.get("columns") or None,
                              progress=lambda rows: progress(done=rows, step="checking rows"))
    outcome = {"counts": {"rows": result.rows, "created": result.created, "updated": result.updated,
                          "unchanged": result.unchanged, "rejected": result.rejected},
               "warnings": result.warnings, "warnings_preview": result.warnings_preview[:20],
               "rejects_preview": result.rejects_preview[:20], "rejects_token": token if result.rejects_path else "",
               "name": name,
               "summary": f"Imported {name}: {result.created:,} created, {result.updated:,} updated, "
                          f"{result.unchanged:,} unchanged, {result.rejected:,} rejected; {result.warnings:,} warning(s)."}
    meta["result"] = outcome  # the rejects and this note stay, for the download link
    meta_path.write_text(json.dumps(meta))
    stored.unlink(missing_ok=True)
    return outcome


def register() -> None:
    from powts.jobs import kinds

    kinds.register(KIND, import_upload, result_template="inventory/_import_result.html")
