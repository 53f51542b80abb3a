"""The spellings county exports really use, mapped onto powts' system types and statuses."""
from powts.inventory.choices import LetterLanguage, SystemStatus, SystemType

_TYPE_ALIASES = {
    "septic/drainfield": SystemType.CONVENTIONAL,
    "septic drainfield": SystemType.CONVENTIONAL,
    "septic": SystemType.CONVENTIONAL,
    "gravity": SystemType.CONVENTIONAL,
    "conventional gravity": SystemType.CONVENTIONAL,
    "in ground gravity": SystemType.CONVENTIONAL,
    "drainfield": SystemType.CONVENTIONAL,
    "seepage bed": SystemType.CONVENTIONAL,
    "in ground pressure": SystemType.IN_GROUND_PRESSURE,
    "pressure": SystemType.IN_GROUND_PRESSURE,
    "igp": SystemType.IN_GROUND_PRESSURE,
    "atgrade": SystemType.AT_GRADE,
    "holding": SystemType.HOLDING_TANK,
    "ht": SystemType.HOLDING_TANK,
    "atu": SystemType.AEROBIC_TREATMENT_UNIT,
    "aerobic": SystemType.AEROBIC_TREATMENT_UNIT,
    "aerobic unit": SystemType.AEROBIC_TREATMENT_UNIT,
    "drip line": SystemType.DRIP,
    "drip dispersal": SystemType.DRIP,
    "privy": SystemType.PIT_PRIVY,
    "vault privy": SystemType.VAULTED_PRIVY,
    "portable toilet": SystemType.PORTABLE_RESTROOM,
    "rv transfer": SystemType.RV_TRANSFER_CONTAINER,
    "single pass sand filter": SystemType.SAND_FILTER,
    "recirculating sand filter": SystemType.SAND_FILTER,
}


def _key(text: str) -> str:
    return " ".join(text.strip().lower().replace("_", " ").replace("-", " ").split())


TYPES = {_key(v): v for v in SystemType.values}
TYPES.update({_key(label): v for v, label in SystemType.choices})
TYPES.update({_key(k): v for k, v in _TYPE_ALIASES.items()})

STATUSES = {_key(v): v for v in SystemStatus.values}
STATUSES.update({"in use": SystemStatus.ACTIVE, "inactive": SystemStatus.ABANDONED, "abandon": SystemStatus.ABANDONED,
                 "failed": SystemStatus.FAILING, "fail": SystemStatus.FAILING})


def system_type(text: str) -> str | None:
    return TYPES.get(_key(text))


def status(text: str) -> str | None:
    return STATUSES.get(_key(text))

# The owner's letter language (column `language`): the code, the English name or the language's own.
LANGUAGES = {_key(v): v for v in LetterLanguage.values}
LANGUAGES.update({"english": LetterLanguage.ENGLISH, "eng": LetterLanguage.ENGLISH, "spanish": LetterLanguage.SPANISH,
                  "espanol": LetterLanguage.SPANISH, "español": LetterLanguage.SPANISH, "spa": LetterLanguage.SPANISH,
                  "hmong": LetterLanguage.HMONG, "hmoob": LetterLanguage.HMONG})


def language(text: str) -> str | None:
    return LANGUAGES.get(_key(text))
