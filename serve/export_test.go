package serve

// InFlight returns the bytes the requests in flight hold now and the most
// they have held (Options.MaxInflightBytes bounds both).
func InFlight(s *Server) (now, peak int64) { return s.inflight.Load(), s.peak.Load() }
