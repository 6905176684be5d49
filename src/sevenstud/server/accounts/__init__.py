"""A player's account: sign-up and log-in, notes, hand history and statistics, downloads."""
