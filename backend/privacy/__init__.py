"""Privacy (LGPD): what the trip record keeps, for how long, and a passenger's erasure, which reaches every app
that names or follows them (bookings, ratings, complaints, receipts). It sits above those apps so that the trip
record below them imports none of them."""
