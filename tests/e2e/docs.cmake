# The documentation's links: every relative link in README.md and docs/*.md names a file
# that exists and, with a #fragment, a heading of that page (python3-markdown-it parses).
cmh_add_e2e_test(docs_links docs_links.py ARGS ${PROJECT_SOURCE_DIR} TIMEOUT 60)
