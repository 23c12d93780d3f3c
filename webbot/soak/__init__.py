"""`webbot soak`: many checked games on the bundled replicas, spread over Dask workers."""
