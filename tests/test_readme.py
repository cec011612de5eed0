"""The README is a front page: its API example runs as written, it leads with the install and test commands,
it stays under 16 KB, and every relative link in it and in docs/ points at a file (and heading) that exists."""

import re
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
MAX_README_BYTES = 16 * 1024

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", flags=re.S | re.M)


def test_readme_python_example_runs():
    text = README.read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks, "README has no python example"
    namespace: dict = {}
    exec(compile(blocks[0], "README.md", "exec"), namespace)
    assert namespace["result"].state.at_rest()
    assert len(namespace["batch"]) == 64


def test_readme_leads_with_install_and_test_commands():
    first_block = re.search(r"```bash\n(.*?)```", README.read_text(), flags=re.S).group(1).strip().splitlines()
    assert len(first_block) == 2
    assert "pip install" in first_block[0] and "nineball match" in first_block[0]
    assert "pytest" in first_block[1]


def test_readme_is_a_front_page_under_16_kb():
    size = README.stat().st_size
    assert size <= MAX_README_BYTES, f"README.md is {size} bytes, over {MAX_README_BYTES}: move detail to docs/"


def heading_anchors(markdown: str) -> set[str]:
    """The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces to hyphens, repeats
    numbered (-1, -2, ...)."""
    anchors: set[str] = set()
    seen: dict[str, int] = {}
    for line in FENCE.sub("", markdown).splitlines():
        match = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not match:
            continue
        text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", match.group(1)).lower()
        slug = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LN").replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        anchors.add(slug if count == 0 else f"{slug}-{count}")
    return anchors


def test_heading_anchors_follow_github():
    text = "# The shipped agent `learned`\n## Installing: extras and torch\n## Two players: PettingZoo\n## A\n## A\n"
    assert heading_anchors(text) == {"the-shipped-agent-learned", "installing-extras-and-torch",
                                     "two-players-pettingzoo", "a", "a-1"}
    assert heading_anchors("```\n# not a heading\n```\n## Friction bound of the ball–ball impulse\n") == {
        "friction-bound-of-the-ballball-impulse"}


def relative_links(page: Path) -> list[str]:
    """The targets of the page's markdown links that are not web addresses (code blocks skipped)."""
    return [t for t in LINK.findall(FENCE.sub("", page.read_text()))
            if not re.match(r"[a-z][a-z0-9+.-]*:", t)]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve(page):
    broken = []
    for target in relative_links(page):
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(f"{target}: no file {file.relative_to(ROOT) if file.is_relative_to(ROOT) else file}")
        elif anchor and (file.suffix != ".md" or anchor not in heading_anchors(file.read_text())):
            broken.append(f"{target}: no heading #{anchor} in {file.name}")
    assert not broken, f"{page.name}: " + "; ".join(broken)


def test_link_check_sees_the_links():
    assert {"docs/physics.md", "docs/benchmarks.md", "docs/agents.md", "docs/scaling.md",
            "docs/environment.md", "docs/rules.md", "docs/recording.md"} <= set(relative_links(README))
