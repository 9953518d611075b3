"""Every relative link in README.md and docs/*.md resolves: the file or folder exists, and
a #fragment names a heading (or an explicit <a id/name>) of the target page. Links to
other sites are not fetched. Usage: docs_links.py [SOURCE_DIR] [FILE.md ...] (the files
default to README.md and docs/*.md)."""
import glob
import os
import re
import sys
import urllib.parse

from markdown_it import MarkdownIt  # python3-markdown-it: code spans and fences stay out

_md = MarkdownIt("commonmark").enable("table")
_explicit_anchor = re.compile(r"""<a\s+(?:id|name)\s*=\s*["']([^"']+)["']""", re.I)


def slug(text):
    """GitHub's heading anchor: lower case, every character but letters, digits, '_', '-'
    and spaces dropped, spaces to '-'. Written here because GitHub's rule is what readers
    click, and markdown-it's plugins slug differently."""
    kept = "".join(c for c in text.strip().lower() if c.isalnum() or c in "_- ")
    return kept.replace(" ", "-")


def inline_text(token):
    """A heading's text as GitHub slugs it: code spans' content, links' text, no markup."""
    return "".join(c.content for c in (token.children or []) if c.type in ("text", "code_inline"))


def parse(path):
    """(anchors, links) of one page; links as (line, target)."""
    with open(path, encoding="utf-8") as f:
        source = f.read()
    tokens = _md.parse(source)
    anchors, links, seen = set(), [], {}
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open":
            base = slug(inline_text(tokens[i + 1]))
            n = seen.get(base, 0)
            seen[base] = n + 1
            anchors.add(base if n == 0 else f"{base}-{n}")
        if tok.type in ("html_block", "inline") and tok.content:
            anchors.update(_explicit_anchor.findall(tok.content))
        if tok.type == "inline":
            line = tok.map[0] + 1 if tok.map else 0
            for child in tok.children or []:
                if child.type == "link_open":
                    links.append((line, child.attrs.get("href", "")))
                elif child.type == "image":
                    links.append((line, child.attrs.get("src", "")))
    return anchors, links


def main(argv):
    source = os.path.abspath(argv[1] if len(argv) > 1 else os.environ.get("CMH_SOURCE_DIR", "."))
    files = argv[2:] or [os.path.join(source, "README.md")] + sorted(glob.glob(os.path.join(source, "docs", "*.md")))
    cache, broken, count = {}, [], 0

    def anchors_of(path):
        if path not in cache:
            cache[path] = parse(path)
        return cache[path][0]

    for page in files:
        page = os.path.abspath(page)
        if not os.path.isfile(page):
            broken.append(f"{page}: no such file")
            continue
        for line, href in parse(page)[1]:
            parsed = urllib.parse.urlsplit(href)
            if parsed.scheme or href.startswith("//"):
                continue  # another site, or mailto:
            count += 1
            where = f"{os.path.relpath(page, source)}:{line}: {href}"
            target = os.path.normpath(os.path.join(os.path.dirname(page), urllib.parse.unquote(parsed.path))) \
                if parsed.path else page
            if not os.path.exists(target):
                broken.append(f"{where}: {os.path.relpath(target, source)} does not exist")
            elif parsed.fragment and target.endswith(".md") and os.path.isfile(target):
                if parsed.fragment not in anchors_of(target):
                    broken.append(f"{where}: {os.path.relpath(target, source)} has no heading #{parsed.fragment}")
    for b in broken:
        print(f"broken link: {b}")
    print(f"{count} relative links in {len(files)} pages, {len(broken)} broken")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
