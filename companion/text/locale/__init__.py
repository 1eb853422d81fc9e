"""The translation catalogues: `<language>/LC_MESSAGES/companion.po` and its compiled `.mo`.

`catalogues.py` (needs Babel, a development tool) keeps them in step with the English
templates registered in code; the app reads only the `.mo` files, with `gettext`.
"""
