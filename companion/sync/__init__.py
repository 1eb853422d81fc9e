"""Your games on every device: sync through a CouchDB database (or a compatible server).

`couch.py` speaks CouchDB's HTTP API; `documents.py` is what the database holds and what is
kept between rounds; `engine.py` runs one round (take what changed there, send what changed
here, by the import's rules); `service.py` runs rounds in the background; `settings.py` keeps
where to sync and the password, on this device only; `page_policy.py` lets the phone build
reach that server and no other; `command.py` is `companion sync`.
"""
