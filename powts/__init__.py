"""powts: a Wisconsin county's POWTS program. Its version is pyproject.toml's, read from the installed package's
metadata (one source: `powts --version`, the backup manifest and CHANGELOG.md's headings all name it)."""


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("powts")
    except PackageNotFoundError:  # run from a source tree that was never installed: pyproject.toml itself
        import tomllib
        from pathlib import Path

        try:
            with open(Path(__file__).resolve().parent.parent / "pyproject.toml", "rb") as handle:
                return tomllib.load(handle)["project"]["version"]
        except (OSError, KeyError, ValueError):
            return "unknown"


__version__ = _version()
