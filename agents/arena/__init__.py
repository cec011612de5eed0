"""Where agents meet: ``match`` (one race), ``series`` (many, in processes or on a ``MatchBackend``), ``seeding``,
``recording`` (match records written, read and re-simulated), ``animation`` (re-simulated shots drawn), ``stats``
(Wilson intervals, Elo), ``report`` (tables, JSON, CSV, plots) and ``ray_backend`` (matches as Ray tasks)."""
