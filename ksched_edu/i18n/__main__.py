"""``python -m ksched_edu.i18n extract|build|status``: the translation catalogs (see catalogs.py).

    extract   add new Markdown cells and library strings to every catalog; mark changed ones fuzzy
    build     compile the library's catalogs; write notebooks/<lang>/ from the English and the catalogs
    status    each chapter's share of current translations, per language
"""
from __future__ import annotations

import argparse
import sys

from . import catalogs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ksched_edu.i18n", description=__doc__.split("\n")[0])
    ap.add_argument("command", choices=["extract", "build", "status"])
    ap.add_argument("--lang", action="append", help="a language (default: every translated one)")
    ap.add_argument("--part", action="append", help="only this catalog of the library (exercises, widgets, viz, "
                    "ksched_edu), and no notebooks")
    args = ap.parse_args(argv)
    langs = args.lang or list(catalogs.TRANSLATED)
    for lang in langs:
        if lang not in catalogs.TRANSLATED:
            print(f"python -m ksched_edu.i18n: unknown language {lang!r}; the catalogs are for "
                  f"{', '.join(catalogs.TRANSLATED)}", file=sys.stderr)
            return 2
    for lang in langs:
        if args.command == "extract":
            for nb in catalogs.chapter_files() if not args.part else []:
                r = catalogs.extract_notebook(nb, lang)
                if r.changed:
                    print(f"{r.path.relative_to(catalogs.ROOT)}: {r.added} new, {r.fuzzy} fuzzy, {r.removed} gone")
            for r in catalogs.extract_library(lang, args.part):
                if r.changed:
                    print(f"{r.path.relative_to(catalogs.ROOT)}: {r.added} new, {r.fuzzy} fuzzy, {r.removed} gone")
        elif args.command == "build":
            for mo in catalogs.build_library(lang, args.part):
                print(f"wrote {mo.relative_to(catalogs.ROOT)}")
            for cov in catalogs.build_edition(lang) if not args.part else []:
                print(f"{catalogs.language_tag(lang)}/{cov.chapter}.ipynb: {cov.translated}/{cov.cells} cells translated")
        else:
            for nb in catalogs.chapter_files():
                _, cov = catalogs.translations(nb, lang)
                print(f"{lang} {cov.chapter:28} {cov.translated:4}/{cov.cells:<4} {100 * cov.share:5.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
