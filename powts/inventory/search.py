"""Finding a system by parcel number, system id, a piece of the address or the owner's name.

Backed by an index, never a `LIKE '%x%'` scan: SQLite FTS5 with the trigram tokenizer (a content
table over inventory_system.search_text, kept in step by triggers), PostgreSQL pg_trgm (GIN).
Both match any piece of three characters or more; shorter queries match the start of an id.

Matches come in the order the systems were entered (their id), read from the index in that order, so
a caller that takes the first page stops at its last row: a common last name alone ("olson", tens of
thousands of matches among 1,000,000 systems) no longer collects and sorts every match. Relevance
(bm25) would need every match scored first, the cost this avoids, and on trigrams it mostly rewards
short texts; the id order is stable page to page and, for an imported county, the file's order. A
caller that sorts (a column the user clicked) still may, at the old cost.
"""
from __future__ import annotations

import contextlib
import re

from django.db import connection
from django.db.models import Q, QuerySet, Value
from django.db.models.functions import StrIndex
from django.db.models.lookups import GreaterThan


# Separators people type (or leave out) inside a parcel number: "0810-123-4567-0", "0810 123 4567 0", "081012345670".
_SEPARATORS = re.compile(r"[\s\-./]+")
_PARCEL_LIKE = re.compile(r"^[\d\s\-./]*\d[\d\s\-./]*$")


def compact(text: str) -> str:
    """A parcel number without its separators, lower-cased: how it is indexed and searched a second time."""
    return _SEPARATORS.sub("", text).lower()


def search_text_for(system_id: str, parcel_number: str, site_address: str, municipality: str, owner_name: str) -> str:
    text = " | ".join(p for p in (system_id, parcel_number, site_address, municipality, owner_name) if p).lower()
    bare = compact(parcel_number or "")
    # The parcel number once more without dashes or spaces, so "081012345670" finds "0810-123-4567-0" and back.
    return f"{text} | {bare}" if bare and bare != (parcel_number or "").lower() else text


def _normalise(query: str) -> str:
    """A query of digits and separators only is a parcel number: searched without its separators; in a
    longer query, a word of digits joined by dashes or dots ("0810-123") is too."""
    if _PARCEL_LIKE.match(query.strip()) and len(compact(query)) >= 3:
        return compact(query)
    return " ".join(compact(w) if _PARCEL_LIKE.match(w) and len(compact(w)) >= 3 else w for w in query.split())


def _terms(query: str) -> list[str]:
    """Words of three letters or more; a shorter word joins its neighbour as a phrase ("lake rd")."""
    terms: list[str] = []
    pending = ""
    for word in query.lower().split():
        if len(word) >= 3:
            terms.append(f"{pending} {word}".strip())
            pending = ""
        elif terms and not pending:
            terms[-1] = f"{terms[-1]} {word}"
        else:
            pending = f"{pending} {word}".strip()
    if pending and terms:
        terms[-1] = f"{terms[-1]} {pending}"
    return terms


# pg_trgm's words: runs of letters and digits (anything else separates them).
_WORDS = re.compile(r"[^\W_]+")


def _indexed_words(term: str) -> list[str]:
    """The words of a term that the trigram index is asked for: those of three characters or more (each
    gives trigrams of its own letters), or the whole term when it has none; a long number in pieces."""
    words = [w for w in _WORDS.findall(term) if len(w) >= 3] or [term]
    return list(dict.fromkeys(p for w in words for p in _pieces(w)))


LONG_NUMBER = 12  # digits: four disjoint pieces or more


def _pieces(word: str) -> list[str]:
    """A long number (a parcel number without its dashes) as disjoint three-digit pieces, the last one ending
    the number; any other word whole. Every three digits are in about 4% of a county's systems (ids, parcel
    and house numbers), so the index read each of a number's trigrams at length: a 14-digit parcel number
    asked for whole read 176 of the index's pages (median, 1,000,000 systems), asked for its five pieces 89,
    the same match. The pieces narrow it to a row or two; the whole number is then checked (strpos). A
    shorter number keeps every trigram: three pieces of seven digits left hundreds of rows to check."""
    if not (word.isascii() and word.isdigit() and len(word) >= LONG_NUMBER):
        return [word]
    pieces = [word[i:i + 3] for i in range(0, len(word) - 2, 3)]
    return pieces + [word[-3:]] if len(word) % 3 else pieces


def search(queryset: QuerySet, query: str) -> QuerySet:
    if not query.strip():
        return queryset
    query = _normalise(query)
    terms = _terms(query)
    if not terms:
        # Too short for a trigram: match the start of a system id or parcel number (both indexed).
        q = query.strip()
        return queryset.filter(Q(system_id__istartswith=q) | Q(parcel__parcel_number__istartswith=q))
    if connection.vendor == "sqlite":
        # Each term a quoted FTS5 string (quotes doubled), all of them required.
        match = " AND ".join('"' + t.replace('"', '""') + '"' for t in terms)
        # A join with the FTS table ordered by its rowid: SQLite reads the index as the outer loop in rowid
        # order and stops at the LIMIT (an `id IN (SELECT rowid ...)` collected every match first).
        return queryset.extra(
            tables=["inventory_system_fts"],
            where=["inventory_system_fts.rowid = inventory_system.id", "inventory_system_fts MATCH %s"],
            params=[match],
            order_by=["inventory_system_fts.rowid"],
        )
    result = queryset
    for t in terms:
        words = _indexed_words(t)
        if words == [t]:
            result = result.filter(search_text__contains=t)  # pg_trgm GIN index answers LIKE '%t%'
            continue
        # A term with a short word or a separator ("da-0995555", "lake rd"): the index is asked for its longer
        # words only and the whole term is checked on the rows it gives (strpos, which the index cannot
        # answer). pg_trgm pads a short word into trigrams such as "da " that every system id of a county
        # holds: asked for those, the index read a million entries (180 ms against 1 ms at 1,000,000 systems).
        for word in words:
            result = result.filter(search_text__contains=word)
        result = result.filter(GreaterThan(StrIndex("search_text", Value(t)), 0))
    # In id order: PostgreSQL walks the primary key and stops at the LIMIT when matches are common, or reads
    # the county's systems (the jurisdiction index) or the GIN index and sorts what it found. A (county, id)
    # index was tried on 72 counties: the planner prices a two-column walk far above the county's scan and
    # did not use it; the county's scan and sort of a common name took 13-26 ms.
    return result.order_by("id")


_FTS_HASHSIZE = "INSERT INTO inventory_system_fts(inventory_system_fts, rank) VALUES ('hashsize', %s)"
FTS5_DEFAULT_HASH_BYTES = 1024 * 1024
BULK_HASH_BYTES = 64 * 1024 * 1024  # memory held while one import indexes its systems (target: 1 GiB in all)


class BulkIndexer:
    """For imports: new systems are inserted with the index trigger off, then indexed in one go."""

    def __init__(self):
        self.ranges: list[tuple[int, int]] = []
        self.enabled = connection.vendor == "sqlite"

    @contextlib.contextmanager
    def inserting(self, ids: list[int]):
        """Around inserting systems with these ids: trigger off, ids remembered (contiguous ranges merged)."""
        if not self.enabled or not ids:
            yield
            return
        with self.paused():
            yield
        low, high = min(ids), max(ids)
        if self.ranges and self.ranges[-1][1] + 1 == low:
            self.ranges[-1] = (self.ranges[-1][0], high)
        else:
            self.ranges.append((low, high))

    @contextlib.contextmanager
    def paused(self):
        """Around a set-based insert of systems: the per-row trigger off (index them with index_select after)."""
        if not self.enabled:
            yield
            return
        with connection.cursor() as cursor:
            cursor.execute("UPDATE inventory_search_sync SET enabled = 0")
            try:
                yield
            finally:
                cursor.execute("UPDATE inventory_search_sync SET enabled = 1")

    def index_select(self, select: str, params=()) -> None:
        """Index the systems a query gives as (id, search_text), in one statement (SQLite; PostgreSQL's
        trigram index keeps itself).

        FTS5 gathers new entries in memory and writes them out as a segment each time they reach its
        `hashsize` (1 MB by default), merging segments as they pile up: a million systems made hundreds of
        segments and their merges (14.9-17.8 s of CPU). Gathered up to BULK_HASH_BYTES the same insert took
        8.3 s. The setting is kept in the index's config table, so it is put back before the commit."""
        if not self.enabled:
            return
        with connection.cursor() as cursor:
            cursor.execute("SELECT v FROM inventory_system_fts_config WHERE k = 'hashsize'")
            kept = cursor.fetchone()
            cursor.execute(_FTS_HASHSIZE, [BULK_HASH_BYTES])
            cursor.execute(f"INSERT INTO inventory_system_fts(rowid, search_text) {select}", params)
            cursor.execute(_FTS_HASHSIZE, [kept[0] if kept else FTS5_DEFAULT_HASH_BYTES])
            if kept is None:  # as it was: no row (the value now in force is the same default)
                cursor.execute("DELETE FROM inventory_system_fts_config WHERE k = 'hashsize'")

    def finish(self) -> None:
        with connection.cursor() as cursor:
            for low, high in self.ranges:
                cursor.execute(
                    "INSERT INTO inventory_system_fts(rowid, search_text) "
                    "SELECT id, search_text FROM inventory_system WHERE id BETWEEN %s AND %s", [low, high])
        self.ranges = []
