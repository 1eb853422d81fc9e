"""Your games on every device: sync through a CouchDB database (or a compatible server).

`couch.py` speaks CouchDB's HTTP API; `engine.py` runs one round (take what changed there,
send what changed here, by the import's rules); `settings.py` keeps where to sync and the
password, on this device only.
"""
