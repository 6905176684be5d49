"""The card room's tournaments: the service that runs a director over the room's tables
(:mod:`.service`), its sharing among server processes, its cashier, routes and public views."""
