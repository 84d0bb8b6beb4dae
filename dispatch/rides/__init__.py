"""Rides: what the dispatcher decides and writes (Art. 66). Cabs online, choosing a cab, offers and the worker
processes that make them, a ride's steps, street and rank trips, escalations, due bookings, positions and the
passenger's safety."""
