"""The files section of the inventory's system page (powts.core.registry "system_panel"): the template asks
for the files the signed-in person may see ({% system_files system %})."""


def system_context(system) -> dict:
    return {"system": system}
