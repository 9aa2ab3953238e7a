# Sphinx configuration of the project's documentation: the module docs of src/gsn/doc,
# src/st/doc and src/harp/doc under one index. tools/build-docs.sh gathers them into a
# source folder next to this file's copy and runs sphinx-build with warnings as errors.
project = "GSN, ST and HARP for ns-3"
author = "the gsn-ns3 authors"
copyright = "the gsn-ns3 authors, GPL-2.0-only"
with open("VERSION", encoding="utf-8") as f:
    release = f.read().strip()
version = release

extensions = []
master_doc = "index"
exclude_patterns = []
html_theme = "alabaster"
html_theme_options = {"page_width": "1100px", "sidebar_width": "260px"}
html_static_path = []
# Module docs use section markers in ns-3's order: #### (document), ==== ,  ----  and so on.
highlight_language = "c++"
