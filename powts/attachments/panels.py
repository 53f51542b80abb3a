"""The files section of the inventory's system page (settings.POWTS_SYSTEM_PANELS): the template asks
for the files the signed-in person may see ({% system_files system %})."""


def system_context(system) -> dict:
    return {"system": system}
