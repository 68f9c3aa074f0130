package explorer

import "github.com/ravelmc/ravel/dpor"

// next returns the event to explore next from node, the top of the path, or false when
// nothing more is to be explored from it: the strategy's own choice for a dpor.Picker,
// its order for a dpor.Orderer, else the smallest index of its backtrack set neither
// done nor asleep. A node left
// before anything was explored from it, though events were enabled there, is a path a
// sleep set blocked (Stats.SleepBlocked).
func (e *engine) next(node *dpor.Node) (i int, ok bool) {
	if p, isPicker := e.strat.(dpor.Picker); isPicker {
		i, ok = p.Pick(e)
	} else if o, orders := e.strat.(dpor.Orderer); orders {
		i, ok = o.Order(e)
	} else {
		i, ok = node.Backtrack.FirstNotInEither(&node.Done, &node.Sleep)
	}
	if !ok && len(node.Tried) == 0 && !node.Final && node.Sleep.Len() == len(node.Enabled) {
		e.stats.SleepBlocked++
	}
	return i, ok
}

// forFaults returns the strategy to run on a system with fault events (faulty): the
// variant of a dpor.Faulty strategy, else s itself.
func forFaults(s dpor.Strategy, faulty bool) dpor.Strategy {
	if f, ok := s.(dpor.Faulty); ok && faulty {
		return f.WithFaults()
	}
	return s
}
