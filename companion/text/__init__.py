"""Every word the app shows, below the rules: message ids and their English templates
(`messages`), the screens' words (`ui_text`), rendering in the table's language (`i18n`),
the rules reference (`reference`) and the French and Spanish catalogues (`locale/`).

Nothing here imports a game: the rules registry hands its games down
(`reference.use`), as it hands down each game's messages (`messages.register`).
"""
