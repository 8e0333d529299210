"""``resources.get_remote``, ``try`` and ``unmarshal`` against a real HTTP server on this
machine: what a template prints compared with the real ``hugo`` (``resources.GetRemote``,
``try``, ``transform.Unmarshal``) on the same site; then what matome keeps: a response is
fetched once and read from disk by later builds, and a failed fetch is tried again.
Then the ``x`` shortcode where X cannot be reached: both tools warn at the call and write
nothing."""

from __future__ import annotations

import http.server
import json
import threading
from pathlib import Path

import pytest
from site_probe import build_hugo, build_matome, cases, go_cases, jinja_cases, write_tree

BODIES = {
    "/oembed.json": ("application/json", json.dumps({"html": "<blockquote>hi</blockquote>"})),
    "/list.json": ("application/json", json.dumps([1, 2, 3])),
    "/data.toml": ("application/toml", 'title = "T"\n[a]\nb = 2\n'),
    "/page.txt": ("text/plain", "plain text\n"),
}


class Server:
    """A real HTTP server answering ``BODIES`` (404 otherwise), counting requests."""

    def __init__(self) -> None:
        self.requests: list[str] = []
        owner = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                owner.requests.append(self.path)
                found = BODIES.get(self.path)
                if found is None:
                    self.send_error(404)
                    return
                kind, body = found
                data = body.encode()
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args) -> None:
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def table(base: str) -> list[tuple[str, str, str]]:
    """(case, Go, Jinja): each pair prints the same."""
    return [
        (
            "oembed",
            f'{{{{ with try (resources.GetRemote "{base}/oembed.json") }}}}{{{{ with .Value }}}}{{{{ (. | transform.Unmarshal).html | safeHTML }}}}|{{{{ .MediaType.Type }}}}{{{{ end }}}}{{{{ end }}}}',
            f'{{% set r = try(resources.get_remote, "{base}/oembed.json") %}}{{% if r.value %}}{{{{ (r.value | unmarshal).html | safe }}}}|{{{{ r.value.media_type.type }}}}{{% endif %}}',
        ),
        (
            "list",
            f'{{{{ range (resources.GetRemote "{base}/list.json" | transform.Unmarshal) }}}}<{{{{ . }}}}>{{{{ end }}}}',
            f'{{% for n in resources.get_remote("{base}/list.json") | unmarshal %}}<{{{{ n }}}}>{{% endfor %}}',
        ),
        (
            "toml",
            f'{{{{ $d := resources.GetRemote "{base}/data.toml" | transform.Unmarshal }}}}{{{{ $d.title }}}}|{{{{ $d.a.b }}}}',
            f'{{% set d = resources.get_remote("{base}/data.toml") | unmarshal %}}{{{{ d.title }}}}|{{{{ d.a.b }}}}',
        ),
        (
            "content",
            f'{{{{ (resources.GetRemote "{base}/page.txt").Content }}}}',
            f'{{{{ resources.get_remote("{base}/page.txt").content }}}}',
        ),
        (
            "not-found",
            f'{{{{ with resources.GetRemote "{base}/missing" }}}}found{{{{ else }}}}none{{{{ end }}}}',
            f'{{% if resources.get_remote("{base}/missing") %}}found{{% else %}}none{{% endif %}}',
        ),
        (
            "unreachable",
            '{{ with try (resources.GetRemote "http://127.0.0.1:9/x") }}{{ with .Err }}failed{{ else }}ok{{ end }}{{ end }}',
            '{% set r = try(resources.get_remote, "http://127.0.0.1:9/x") %}{{ "failed" if r.err else "ok" }}',
        ),
    ]


SITE = {
    "content/_index.md": "+++\ntitle = 'Home'\n+++\n",
    "layouts/single.html": "{{ .Title }}",
    "layouts/list.html": "{{ .Title }}",
    "templates/_default/single.html": "{{ page.title }}",
    "templates/_default/list.html": "{{ page.title }}",
}
CONFIG = 'baseURL = "https://example.org/"\ndisableKinds = ["rss", "sitemap", "robotstxt", "404", "taxonomy", "term"]\n'
# Hugo's default policy refuses IP addresses: the test server is let in, as a site would.
OPEN = CONFIG + "[security.http]\nurls = ['.*']\n"


@pytest.fixture(scope="module")
def server():
    found = Server()
    yield found
    found.stop()


@pytest.fixture(scope="module")
def built(tmp_path_factory, server):
    site = tmp_path_factory.mktemp("remote") / "site"
    rows = table(server.url)
    files = {**SITE, "hugo.toml": OPEN}
    write_tree(
        site,
        {**files, "layouts/home.html": go_cases(rows), "templates/index.html": jinja_cases(rows)},
    )
    hugo_out = build_hugo(site)
    before = len(server.requests)
    matome_out, done = build_matome(site)
    return {
        "site": site,
        "hugo": cases((hugo_out / "index.html").read_text()),
        "matome": cases((matome_out / "index.html").read_text()),
        "requests": server.requests[before:],
        "stderr": done.stderr,
    }


@pytest.mark.parametrize("case", [name for name, _, _ in table("")])
def test_matome_prints_what_hugo_prints(built, case):
    assert built["hugo"][case], f"{case}: Hugo printed nothing"
    assert built["matome"].get(case, "<not printed>") == built["hugo"][case]


def test_each_url_is_fetched_once_and_then_read_from_disk(built, server):
    fetched = [r for r in built["requests"] if r != "/missing"]
    assert sorted(fetched) == sorted(BODIES)
    before = len(server.requests)
    out, _ = build_matome(built["site"], "--ignoreCache")
    assert server.requests[before:] == ["/missing"]  # a 404 is asked again, as Hugo does
    assert cases((out / "index.html").read_text())["oembed"] == built["matome"]["oembed"]


def test_a_response_kept_is_used_when_the_server_is_gone(tmp_path):
    gone = Server()
    site = tmp_path / "site"
    rows = [row for row in table(gone.url) if row[0] in ("oembed", "toml")]
    write_tree(site, {**SITE, "hugo.toml": OPEN, "templates/index.html": jinja_cases(rows)})
    first, _ = build_matome(site)
    before = cases((first / "index.html").read_text())
    gone.stop()
    second, _ = build_matome(site, "--ignoreCache")
    printed = cases((second / "index.html").read_text())
    assert printed == before
    assert printed["oembed"] == "<blockquote>hi</blockquote>|application/json"


def build_call(tmp_path: Path, call: str, config: str) -> tuple[str, str, str]:
    """A page whose body calls ``call`` between two paragraphs, built by both tools: its
    content from Hugo, from matome, and matome's warnings."""
    site = tmp_path / "site"
    write_tree(
        site,
        {
            "hugo.toml": CONFIG + config,
            "content/a.md": f"+++\ntitle = 'A'\n+++\n\nBefore.\n\n{call}\n\nAfter.\n",
            "layouts/single.html": "@@c@@{{ .Content }}@@end@@",
            "templates/_default/single.html": "@@c@@{{ page.content }}@@end@@",
            "templates/_default/list.html": "",
            "layouts/list.html": "",
        },
    )
    hugo_out = build_hugo(site)
    matome_out, done = build_matome(site)
    hugo_page = cases((hugo_out / "a/index.html").read_text())["c"]
    matome_page = cases((matome_out / "a/index.html").read_text())["c"]
    return hugo_page, matome_page, done.stderr


def test_x_shortcode_unreachable_warns_at_the_call_and_writes_nothing(tmp_path):
    # publish.x.com is not reachable from the test machines: both tools say so.
    call = '{{< x user="SanDiegoZoo" id="1453110110599868418" >}}'
    hugo_page, matome_page, warned = build_call(tmp_path, call, "[privacy.x]\nenableDNT = true\n")
    assert matome_page == hugo_page == "<p>Before.</p>\n\n<p>After.</p>"
    warning = 'content/a.md:7:1: warning: The "x" shortcode was unable to retrieve the remote data'
    assert warning in warned
    assert "dnt=true&url=https%3A%2F%2Fx.com%2FSanDiegoZoo%2Fstatus%2F1453110110599868418" in warned


@pytest.mark.parametrize(
    ("call", "config"),
    [
        ("{{< vimeo_simple 19899678 >}}", ""),
        ('{{< vimeo_simple id="19899678" class="c" >}}', "[privacy.vimeo]\nenableDNT = true\n"),
        ("{{< vimeo 19899678 >}}", "[privacy.vimeo]\nsimple = true\n"),
    ],
)
def test_vimeo_simple_unreachable_warns_at_the_call_and_writes_nothing(tmp_path, call, config):
    # vimeo.com is not reachable from the test machines: both tools say so.
    hugo_page, matome_page, warned = build_call(tmp_path, call, config)
    assert matome_page == hugo_page
    assert "vimeo" not in matome_page and matome_page.endswith("<p>After.</p>")
    assert "content/a.md:7:1: warning: The " in warned
    dnt = "1" if "enableDNT" in config else "0"
    assert f"oembed.json?dnt={dnt}&url=https%3A%2F%2Fvimeo.com%2F19899678" in warned


def test_unmarshal_reads_text_by_its_look(tmp_path):
    site = tmp_path / "site"
    rows = [
        (
            "json",
            '{{ (`{"a": [1, 2]}` | transform.Unmarshal).a }}',
            "{{ ('{\"a\": [1, 2]}' | unmarshal).a }}",
        ),
        (
            "toml",
            '{{ (`a = "x"` | transform.Unmarshal).a }}',
            '{{ ("a = \\"x\\"" | unmarshal).a }}',
        ),
        (
            "yaml",
            '{{ ("a: [y, z]" | transform.Unmarshal).a }}',
            '{{ ("a: [y, z]" | unmarshal).a }}',
        ),
    ]
    write_tree(
        site,
        {
            **SITE,
            "hugo.toml": CONFIG,
            "layouts/home.html": go_cases(rows),
            "templates/index.html": jinja_cases(rows),
        },
    )
    hugo = cases((build_hugo(site) / "index.html").read_text())
    matome = cases((build_matome(site)[0] / "index.html").read_text())
    assert hugo == {"json": "[1 2]", "toml": "x", "yaml": "[y z]"}
    assert matome == hugo


def test_responses_are_kept_beside_the_generated_resources(built):
    site = built["site"]
    kept = list(Path(site.parent, f"{site.name}-matome", "resources", "_gen", "remote").iterdir())
    assert sorted(p.suffix for p in kept) == [".json", ".json", ".toml", ".txt"]


def test_the_default_policy_refuses_an_ip_address_as_hugo_does(tmp_path, server):
    site = tmp_path / "site"
    rows = [
        (
            "policy",
            f'{{{{ with try (resources.GetRemote "{server.url}/page.txt") }}}}{{{{ with .Err }}}}refused{{{{ else }}}}fetched{{{{ end }}}}{{{{ end }}}}',
            f'{{% set r = try(resources.get_remote, "{server.url}/page.txt") %}}{{{{ "refused" if r.err else "fetched" }}}}|{{{{ r.err }}}}',
        )
    ]
    write_tree(
        site,
        {
            **SITE,
            "hugo.toml": CONFIG,
            "layouts/home.html": go_cases(rows),
            "templates/index.html": jinja_cases(rows),
        },
    )
    before = len(server.requests)
    hugo = cases((build_hugo(site) / "index.html").read_text())["policy"]
    matome = cases((build_matome(site)[0] / "index.html").read_text())["policy"]
    assert hugo == "refused"
    assert matome.startswith("refused|access denied") and "security.http.urls" in matome
    assert server.requests[before:] == []
