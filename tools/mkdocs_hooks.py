"""mkdocs hook (mkdocs.yml ``hooks:``): the site's root page sends the reader to Getting started.

docs/ has no index.md (README.md is the repository's front page, getting-started.md the
docs' first page), so without this the site's root URL would be a 404.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

_REDIRECT = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>rxpy2</title>
<meta http-equiv="refresh" content="0; url=getting-started/">
<link rel="canonical" href="getting-started/">
</head>
<body><a href="getting-started/">rxpy2: Getting started</a></body>
</html>
"""


def on_post_build(config: Any, **kwargs: Any) -> None:
    index = Path(config["site_dir"]) / "index.html"
    if not index.exists():
        index.write_text(_REDIRECT)
