"""The ``matome`` command: Hugo's flags, Hugo's closing summary, ``path:line:col`` errors."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from pathlib import Path

from . import __version__
from .build import BuildReport, build
from .config import Flags
from .errors import BuildFailed, SourceError
from .progress import Progress
from .publish.staging import finish_removals
from .search import indexed_message

DEFAULT_PORT = 1313  # Hugo's


def _add_site_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-s", "--source", default=".", help="the site's folder (default: .)")
    parser.add_argument("-d", "--destination", help="where to write the site (default: public)")
    parser.add_argument("-D", "--buildDrafts", action="store_true", help="include drafts")
    parser.add_argument("-F", "--buildFuture", action="store_true", help="include future pages")
    parser.add_argument("-E", "--buildExpired", action="store_true", help="include expired pages")
    parser.add_argument("-b", "--baseURL", help="the site's root URL, e.g. https://example.org/")
    parser.add_argument(
        "-e", "--environment", help="config/<environment>/ to apply (default: production)"
    )


def _add_serve_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "-p",
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help=f"port to listen on; the next free one if taken (default: {DEFAULT_PORT})",
    )
    parser.add_argument(
        "--bind", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)"
    )
    _add_switches(parser, SERVE_SWITCHES)


def _add_switches(parser: argparse.ArgumentParser, switches: dict[str, str]) -> None:
    for flag, meaning in switches.items():
        parser.add_argument(flag, action="store_true", help=meaning)


SERVE_SWITCHES = {
    "--navigateToChanged": "go to the page that changed on reload",
    "--disableLiveReload": "do not reload open pages on rebuild",
    "--disableFastRender": "render every page a change affects at once, not when it is asked for",
}
BUILD_SWITCHES = {
    "--minify": "minify HTML and XML",
    "--cleanDestinationDir": "remove files the build did not write",
    "--ignoreCache": "render everything, not reading .matome-cache/ (it is written anew)",
    "--strict": "a name a template reads that does not exist is an error, not a warning",
    "--quiet": "print only errors",
}


def _module(name: str):
    """A command's module, imported when the command runs: ``matome build`` loads no other."""
    return importlib.import_module(f".{name}", __package__)


def _later(module: str, function: str):
    return lambda args: getattr(_module(module), function)(args)


def make_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="matome", description="Build matome blogs: Hugo content, Jinja templates."
    )
    parser.add_argument("--version", action="version", version=f"matome {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    build_cmd = commands.add_parser("build", help="build the site into public/")
    _add_site_flags(build_cmd)
    _add_switches(build_cmd, BUILD_SWITCHES)
    build_cmd.add_argument("--verbose", "-v", action="store_true", help="print warnings in full")
    build_cmd.add_argument(
        "--jobs", "-j", type=int, help="worker processes (default: one per core)"
    )
    new_cmd = commands.add_parser("new", help="new site DIR | new content posts/NAME/index.md")
    new_cmd.add_argument("kind", choices=["site", "content"])
    new_cmd.add_argument("path", help="the new site's folder, or a path under content/")
    new_cmd.add_argument("-s", "--source", default=".", help="the site's folder (default: .)")
    new_cmd.set_defaults(run=_later("new", "run"))
    imp = commands.add_parser("import", help="import hn SOURCE: a Hacker News thread as a draft")
    imp.add_argument("what", choices=["hn"])
    imp.add_argument("thread", help="saved thread JSON (Algolia or official API), item id or URL")
    imp.add_argument("-s", "--source", default=".", help="the site's folder (default: .)")
    imp.add_argument("-o", "--output", help="article path under content/ (default: by date+title)")
    imp.add_argument("--first", type=int, default=30, help="comments before the first details")
    imp.add_argument("--per-block", type=int, default=30, help="comments per details block")
    imp.add_argument("--max", type=int, default=0, help="at most this many comments (0: all)")
    imp.add_argument("--date", help="the article's date, YYYY-MM-DD (default: the thread's)")
    imp.add_argument("--force", action="store_true", help="overwrite an existing article")
    imp.set_defaults(run=_later("hn", "run"))
    check_cmd = commands.add_parser("check", help="list every content problem, exit 1 on errors")
    check_cmd.add_argument("site", nargs="?", default=".", help="the site's folder (default: .)")
    check_cmd.add_argument("--format", choices=["text", "json"], default="text")
    check_cmd.set_defaults(run=_later("check", "run"))
    serve_cmd = commands.add_parser("serve", help="build, serve, rebuild on change, live reload")
    _add_site_flags(serve_cmd)
    _add_serve_flags(serve_cmd)
    serve_cmd.set_defaults(run=lambda args: _module("serve.server").serve(args, flags_from(args)))
    return parser


def flags_from(args: argparse.Namespace) -> Flags:
    environment = args.environment or os.environ.get("HUGO_ENVIRONMENT") or "production"
    return Flags(
        environment=environment,
        base_url=args.baseURL,
        build_drafts=args.buildDrafts,
        build_future=args.buildFuture,
        build_expired=args.buildExpired,
        minify=getattr(args, "minify", False),
        destination=args.destination,
    )


def run() -> None:
    """The ``matome`` command: ``main``, then exit without tearing the heap down.

    A build leaves millions of objects (the site graph, the cache's reads) that Python
    would free one by one at exit; every file is
    written and closed by then, so the process ends as soon as its output is flushed."""
    code = main()
    finish_removals()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def main(argv: list[str] | None = None) -> int:
    args = make_parser().parse_args(argv)
    if args.command == "build":
        return run_build(args)
    if args.command in ("new", "import", "check", "serve"):
        return args.run(args)
    make_parser().print_help()
    return 2


def run_build(args: argparse.Namespace) -> int:
    source = Path(args.source)
    try:
        with Progress(enabled=sys.stdout.isatty() and not args.quiet) as progress:
            report = build(
                source,
                flags_from(args),
                jobs=args.jobs,
                clean=args.cleanDestinationDir,
                read_cache=not args.ignoreCache,
                progress=progress,
                strict=args.strict,
            )
    except BuildFailed as failed:
        for err in failed.errors:
            print(f"{err.path}:{err.line}:{err.col}: error: {err.message}", file=sys.stderr)
        print(
            f"Error: {len(failed.errors)} error(s); nothing was published, the previous site is unchanged.",
            file=sys.stderr,
        )
        return 1
    except SourceError as err:
        print(f"{err.path}:{err.line}:{err.col}: error: {err.message}", file=sys.stderr)
        print("Error: nothing was published, the previous site is unchanged.", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(
            "Interrupted: nothing was published, the previous site is unchanged.", file=sys.stderr
        )
        return 130
    if not args.quiet:
        print_warnings(report, args.verbose)
        print_summary(report, args.verbose)
    return 0


def print_warnings(report: BuildReport, verbose: bool) -> None:
    shown = report.warnings if verbose else report.warnings[:20]
    for warning in shown:
        print(
            f"{warning.path}:{warning.line}:{warning.col}: warning: {warning.message}",
            file=sys.stderr,
        )
    if len(report.warnings) > len(shown):
        print(
            f"... and {len(report.warnings) - len(shown)} more warnings (--verbose shows all)",
            file=sys.stderr,
        )


def print_summary(report: BuildReport, stages: bool = False) -> None:
    rows = [
        ("Pages", report.pages),
        ("Paginator pages", report.paginator_pages),
        ("Non-page files", report.non_page_files),
        ("Static files", report.static_files),
        ("Aliases", report.aliases),
        ("Unchanged files", report.unchanged),
        ("Cleaned", report.cleaned),
    ]
    for name, value in rows:
        print(f" {name:<17}│ {value:>6}")
    if report.stages.keys() == {"check"}:
        print("Nothing changed since the last build: every file is as it was")
    else:
        print(
            f"Rendered {report.rendered_content} page bodies and {report.rendered_outputs} files;"
            f" from the build cache {report.cached_content} bodies, {report.kept_outputs} files"
        )
    if report.search_indexed:
        print(indexed_message(report.search_indexed))
    if report.graph_kept and report.added:
        edited = f", {report.edited} bodies edited" if report.edited else ""
        print(f"Articles added ({report.added}{edited}): put into the last build's site graph")
    elif report.graph_kept and report.edited:
        print(f"Only article bodies changed ({report.edited}): the site graph was the last build's")
    elif report.graph_kept:  # the destination differs from what the last build published
        print("No input changed: the site graph and the bodies were the last build's")
    if stages:
        print(
            "Where the time went: " + ", ".join(f"{k} {v:.2f} s" for k, v in report.stages.items())
        )
    print(f"Total in {report.seconds * 1000:.0f} ms → {report.destination}")
