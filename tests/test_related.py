"""When a page's ``related`` read reads the same on a new site graph (the ranking itself is
compared with Hugo's in test_hugo_parity.py)."""

from __future__ import annotations

from datetime import UTC, datetime

from matome.incremental.reads import RelatedLists, share_related


def day(n: int) -> datetime:
    return datetime(2025, 3, n, 10, tzinfo=UTC)


def members(*days: int) -> tuple:
    """A keyword's pages as the read keeps them: (key, publish date, title), newest first."""
    return tuple((f"posts/a{n:02d}.md", day(n), f"記事 {n}") for n in sorted(days, reverse=True))


def read(page_day: int, *keywords: tuple) -> tuple:
    return day(page_day), keywords


YEAR = ("date", "2025")


def test_a_page_newer_than_the_reader_changes_nothing_it_may_list():
    old = read(10, (YEAR, members(2, 5, 10, 12)))
    new = read(10, (YEAR, members(2, 5, 10, 12, 20)))
    assert RelatedLists(include_newer=False).unchanged(old, new)


def test_a_page_as_old_or_older_than_the_reader_changes_its_list():
    old = read(10, (YEAR, members(2, 5, 10, 12)))
    for added in (1, 7, 10):
        new = read(10, (YEAR, members(2, 5, 10, 12, added)))
        assert not RelatedLists(include_newer=False).unchanged(old, new), added


def test_an_older_page_retitled_or_removed_changes_the_list():
    old = read(10, (YEAR, members(2, 5, 10)))
    retitled = tuple(
        (key, date, "新しい題" if key.endswith("a05.md") else title)
        for key, date, title in old[1][0][1]
    )
    assert not RelatedLists(False).unchanged(old, read(10, (YEAR, retitled)))
    assert not RelatedLists(False).unchanged(old, read(10, (YEAR, members(2, 10))))


def test_with_include_newer_a_newer_page_changes_the_list():
    old = read(10, (YEAR, members(2, 5, 10)))
    new = read(10, (YEAR, members(2, 5, 10, 20)))
    assert not RelatedLists(include_newer=True).unchanged(old, new)


def test_the_reader_s_own_date_or_keywords_changing_changes_the_list():
    old = read(10, (YEAR, members(2, 5, 10)))
    assert not RelatedLists(False).unchanged(old, read(11, (YEAR, members(2, 5, 10))))
    tag = (("tags", "ai"), members(2, 10))
    assert not RelatedLists(False).unchanged(old, read(10, (YEAR, members(2, 5, 10)), tag))
    assert RelatedLists(False).unchanged(read(10, tag), read(10, tag))


def test_the_cache_keeps_one_tuple_of_a_keyword_s_pages():
    """Each worker sends its own copy of a keyword's pages; the index keeps one."""
    shared: dict = {}
    first = share_related(read(10, (YEAR, members(2, 5, 10))), shared)
    second = share_related(read(5, (YEAR, members(2, 5, 10))), shared)
    assert first[1][0][1] is second[1][0][1]
    assert second == read(5, (YEAR, members(2, 5, 10)))
