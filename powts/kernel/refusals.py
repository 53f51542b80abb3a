"""The refused business action every layer raises: it names the field (None for the record as a whole),
says why in plain words and may carry the citation of the rule; one that finds several bad fields at once
names each (`Refused.several`). No Django: the kernel, the law and the command line raise it too; the web
and API mappings are in powts.core.refusals and powts.core.api.
"""
from __future__ import annotations

NON_FIELD = "non_field_errors"


class Refused(ValueError):
    """A refused business action. Subclass it per concern; never raise a bare ValueError from a service.

    It subclasses ValueError so callers written against the old exceptions keep working while they move.
    """

    def __init__(self, message: str, *, field: str | None = None, citation: str = "",
                 errors: dict[str, list[str]] | None = None):
        super().__init__(message)
        self.message = message
        self.field = field
        self.citation = citation
        self.errors = errors or {field or NON_FIELD: [message]}  # every bad field and its messages

    @classmethod
    def several(cls, errors: dict, *, citation: str = ""):
        """A refusal naming several fields at once: {field: message or [messages]} ("__all__": the record)."""
        normal = {NON_FIELD if k in ("__all__", None) else k: [str(m) for m in (v if isinstance(v, (list, tuple)) else [v])]
                  for k, v in errors.items()}
        first = next(iter(normal))
        message = "; ".join(m for ms in normal.values() for m in ms)
        return cls(message, field=None if first == NON_FIELD else first, citation=citation, errors=normal)

    def as_dict(self) -> dict:
        """The API body: {"errors": {field: [message]}} plus the citation when there is one."""
        body = {"errors": self.errors}
        if self.citation:
            body["citation"] = self.citation
        return body
