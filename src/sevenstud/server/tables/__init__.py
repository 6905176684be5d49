"""A table's life in the card room: its actor (:mod:`.room`), the keeper that writes its
chips and records (:mod:`.keeper`), its waiting list, chat, the views it sends, the leases that
share tables among server processes, and the recovery after a crash."""
