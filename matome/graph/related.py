"""Related content as Hugo ranks it: ``page.related`` is ``site.RegularPages.Related .``.

Each ``[related]`` index (a front matter field, a taxonomy or a date) maps keywords to
the regular pages that have them. A page's score for another is the sum of the weights
of the keywords they share; pages newer than it are left out unless ``includeNewer``
(Hugo's default keeps "See also" lists stable as articles are added); a ``threshold``
drops weak matches. Equal scores list the newer page first, then by title.

Matches from the headings of pages (``type = "fragments"``) are not made: matome knows
a page's headings only once its body is rendered, after this index is built. The
fragments named in front matter are matched."""

from __future__ import annotations

import heapq
from bisect import bisect_left
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from itertools import chain
from typing import Any

from ..content.page import Page, lookup_param
from ..render.functions import date_format

# Hugo's index when the config has no [related]; a site with the `tag` taxonomy adds tags.
_DEFAULT_INDICES = [{"name": "keywords", "weight": 100}, {"name": "date", "weight": 10}]
_DEFAULT_THRESHOLD = 80

# Page fields Hugo reads by name before it looks in the front matter's params.
_FIELDS = {
    "date": "date",
    "publishdate": "publish_date",
    "lastmod": "lastmod",
    "expirydate": "expiry_date",
    "title": "title",
    "name": "title",
    "description": "description",
    "slug": "slug",
    "section": "section",
    "kind": "kind",
    "type": "type",
    "layout": "layout",
}


@dataclass(frozen=True)
class RelatedIndex:
    name: str
    weight: int
    pattern: str  # Go layout for dates; Hugo's default is the year
    to_lower: bool
    cardinality_threshold: int  # percent; a keyword more common than this is dropped


@dataclass
class Related:
    """The ranking of one site's regular pages; built once with the site graph."""

    threshold: int
    include_newer: bool
    min_weight: int
    max_weight: int
    indices: list[RelatedIndex]
    # Pages are numbered by rank: newest publish date first, then by title.
    by_rank: list[int] = field(default_factory=list)  # rank -> index in Site.pages
    rank: dict[int, int] = field(default_factory=dict)  # index in Site.pages -> rank
    newest_first: list[float] = field(default_factory=list)  # rank -> -publish timestamp
    # index name -> keyword -> the ranks of the pages that have it, ascending
    members: dict[str, dict[str, list[int]]] = field(default_factory=dict)
    keywords: list[tuple] = field(default_factory=list)  # rank -> ((name, keyword), ...)


def related_config(config: Any) -> Related:
    """Hugo's ``[related]`` settings (its keys in any case), or its defaults."""
    raw = config.get("related")
    if raw is None:
        specs = list(_DEFAULT_INDICES)
        if "tag" in config.taxonomies:
            specs.append({"name": "tags", "weight": 80})
        settings: dict = {"threshold": _DEFAULT_THRESHOLD}
    else:
        settings = _lower_keys(raw)
        specs = settings.get("indices") or []
    to_lower = bool(settings.get("tolower", False))
    indices = []
    for spec in map(_lower_keys, specs):
        indices.append(
            RelatedIndex(
                name=str(spec.get("name", "")).lower(),
                weight=int(spec.get("weight", 0) or 0),
                pattern=str(spec.get("pattern", "") or "2006"),
                to_lower=to_lower or bool(spec.get("tolower", False)),
                cardinality_threshold=int(spec.get("cardinalitythreshold", 0) or 0),
            )
        )
    weights = [i.weight for i in indices]
    return Related(
        threshold=int(settings.get("threshold", 0) or 0),
        include_newer=bool(settings.get("includenewer", False)),
        min_weight=min([0, *weights]),
        max_weight=max([0, *weights]),
        indices=[i for i in indices if i.weight != 0],  # weight 0 turns an index off
    )


def build_related(
    config: Any, regular: list[Page], known: dict[int, tuple] | None = None
) -> Related:
    """The ranking of ``regular``; ``known``: the keywords of some of them (by ``id``),
    as ``keywords_of`` gives them for the same configuration."""
    related = related_config(config)
    order = sorted(regular, key=lambda p: (-p.publish_date.timestamp(), p.title, p.index))
    related.by_rank = [p.index for p in order]
    related.rank = {p.index: r for r, p in enumerate(order)}
    related.newest_first = [-p.publish_date.timestamp() for p in order]
    known = known or {}
    related.keywords = [
        known[id(page)] if id(page) in known else _all_keywords(related, page) for page in order
    ]
    members: dict[str, dict[str, list[int]]] = {i.name: defaultdict(list) for i in related.indices}
    for rank, keywords in enumerate(related.keywords):
        for name, keyword in keywords:
            members[name][keyword].append(rank)
    for index in related.indices:
        if index.cardinality_threshold:
            having = sum(any(n == index.name for n, _ in kws) for kws in related.keywords)
            for keyword, ranks in list(members[index.name].items()):
                if -(-100 * len(ranks) // having) > index.cardinality_threshold:
                    del members[index.name][keyword]
    related.members = {name: dict(words) for name, words in members.items()}
    return related


def keywords_of(related: Related, pages: list[Page]) -> dict[int, tuple]:
    """Each ranked page's keywords, by the ``id`` of the page (``pages``: the site's,
    which ``by_rank`` numbers)."""
    return {
        id(pages[i]): keywords
        for i, keywords in zip(related.by_rank, related.keywords, strict=True)
    }


def page_keywords(page: Page, index: RelatedIndex) -> list[str]:
    """A page's keywords in one index: a string, a list of them, or a date as ``pattern``.

    A number or a table has none (Hugo stops the build there). A keyword listed twice
    counts once (Hugo counts it twice)."""
    if index.name == "linktitle":
        value: Any = page.link_title or page.title
    elif index.name in _FIELDS:
        value = getattr(page, _FIELDS[index.name])
    else:
        value = lookup_param(page.params, index.name)
    if isinstance(value, datetime):
        return [date_format(value, index.pattern)]
    if isinstance(value, str):
        values = [value]
    elif isinstance(value, (list, tuple)):
        values = [str(v) for v in value]
    else:
        return []
    return list(
        dict.fromkeys(v.lower() for v in values) if index.to_lower else dict.fromkeys(values)
    )


def related_pages(site: Any, page: Page, limit: int) -> list[Page]:
    """The ``limit`` best-ranked related pages of ``page``."""
    related: Related = site.related_index
    me = related.rank.get(page.index, -1)
    keywords = related.keywords[me] if me >= 0 else _all_keywords(related, page)
    first = _first_allowed(related, page)
    weights = {index.name: index.weight for index in related.indices}
    counted: list[tuple[int, Counter]] = []
    longest: tuple[int, list[int]] | None = None  # one index's single keyword: no Counter
    for name, group in _by_index(keywords):
        members = related.members[name]
        lists = [m[bisect_left(m, first) :] for m in (members.get(k, ()) for k in group)]
        if len(lists) == 1 and (longest is None or len(lists[0]) > len(longest[1])):
            if longest is not None:
                counted.append((longest[0], Counter(longest[1])))
            longest = (weights[name], lists[0])
        else:
            counted.append((weights[name], Counter(chain.from_iterable(lists))))
    if len(counted) == 1:
        weight, counts = counted[0]
        score = {rank: weight * n for rank, n in counts.items()}
    else:
        score = {}
        for weight, counts in counted:
            for rank, n in counts.items():
                score[rank] = score.get(rank, 0) + weight * n
    score.pop(me, None)
    matches: Counter = Counter()  # for the threshold only
    if related.threshold > 0:
        for _, counts in counted:
            matches.update(counts)
    candidates = []
    if longest is not None:
        weight, ranks = longest
        both = score.keys() & set(ranks)
        for rank in both:
            score[rank] += weight
        if related.threshold > 0:
            matches.update(both)
        # The pages only this keyword matches score alike: rank decides, so the first
        # ``limit`` of them are all that can be listed.
        alone = (r for r in ranks if r not in score and r != me)
        if _passes(related, weight, 1):
            candidates = [(-weight, r) for _, r in zip(range(limit), alone, strict=False)]
    if related.threshold > 0:
        candidates += [(-s, r) for r, s in score.items() if _passes(related, s, matches[r])]
    else:
        candidates += [(-s, r) for r, s in score.items()]
    pages = site.all_pages  # the ranking names pages by their index among every language's
    return [pages[related.by_rank[r]] for _, r in heapq.nsmallest(limit, candidates)]


def _first_allowed(related: Related, page: Page) -> int:
    """The first rank ``page`` may list: older or as old, unless newer pages are included."""
    if related.include_newer or not page.publish_date:
        return 0
    return bisect_left(related.newest_first, -page.publish_date.timestamp())


def _passes(related: Related, score: int, matches: int) -> bool:
    """Hugo's threshold: the average weight of the matches, scaled to 0..100 between the
    smallest and largest index weights, against the threshold divided by the matches."""
    if related.threshold <= 0:
        return True
    average = int(score / matches)  # Go's integer division rounds towards zero
    span = related.max_weight - related.min_weight
    normalized = int((average - related.min_weight) / span * 100 + 0.5) if span else 0
    return normalized >= related.threshold // matches


def _all_keywords(related: Related, page: Page) -> tuple:
    return tuple((i.name, k) for i in related.indices for k in page_keywords(page, i))


def _by_index(keywords: tuple) -> list[tuple[str, list[str]]]:
    groups: dict[str, list[str]] = {}
    for name, keyword in keywords:
        groups.setdefault(name, []).append(keyword)
    return list(groups.items())


def _lower_keys(table: Any) -> dict:
    return {str(k).lower(): v for k, v in table.items()} if isinstance(table, dict) else {}
