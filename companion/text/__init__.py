"""The words below the rules: message ids and their English templates (`messages`), the
words every screen shares (`ui_text`; a game's own sit beside its screen), rendering in the
table's language (`i18n`), reading the rules reference (`reference`; each game's text sits
beside its rules) and the French and Spanish catalogues of every word (`locale/`).

Nothing here imports a game: the rules registry hands its games down
(`reference.use`), as it hands down each game's messages (`messages.register`).

Catalogues: `locale/<lang>/LC_MESSAGES/companion.po` (source) and `.mo` (compiled, shipped,
read with `gettext`); each entry's context is the message id and its msgid the English in
the code. `python -m companion.text.locale.catalogues` updates the `.po` files from the code
and compiles the `.mo`; the tests fail when a catalogue is behind, holds a dead id, lacks a
translation or changes a `{placeholder}`. Plurals and goods' names: a `term.good.*` entry
holds its forms (`porc|porcs`), and a sentence picks one by a count (`{good:#cubes}`).

To add a language: create `locale/<code>/LC_MESSAGES/companion.po` (copy the French header;
set `Language` and `Plural-Forms`), run `python -m companion.text.locale.catalogues`,
translate every entry (sentences, `{n:one|many}` plural words with one form per plural form,
`term.*` (a good's `one|many` names likewise), `money.*`, `number.group`, `reference.*`), run
it again, then add the code to `LANGUAGES` in `messages.py` and its name to `NAMES` in
`i18n.py`.
"""
