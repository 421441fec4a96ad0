"""Live updates between the processes and the pages: the publish/subscribe interface (in one process, or over
Redis), the sockets that only tell, the bell that rings a player's pages, and the cluster's job queue.
"""
