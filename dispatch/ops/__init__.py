"""Operations: what the operators of the service read about it. Prometheus metrics, readiness and the console's
health alarm, the latency trace of the benchmark, and the retention of dispatch's personal data."""
