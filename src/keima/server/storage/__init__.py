"""The database: its URL and engine, the tables, the Alembic migrations, the writer that commits every change
(group commits, one transaction per change with its outbox events and timed jobs), and the queues of what follows a
change (the scheduler's timed jobs, the outbox's deliveries).
"""
