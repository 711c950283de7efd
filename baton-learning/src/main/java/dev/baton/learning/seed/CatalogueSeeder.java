package dev.baton.learning.seed;

import dev.baton.learning.catalogue.CatalogueRepository;
import dev.baton.learning.labs.LabRepository;
import dev.baton.learning.labs.LabSlot;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts a {@link CatalogueSeed} into the database on start: the courses, resources and labs only into an empty
 * catalogue (an operator's later changes are never overwritten), and the seeded labs' slots from tomorrow on every
 * start, so a long-running demo keeps bookable slots. Every write skips what is already there, so several instances
 * starting together seed once.
 */
public final class CatalogueSeeder {
    private static final Logger log = LoggerFactory.getLogger(CatalogueSeeder.class);

    private final CatalogueRepository catalogue;
    private final LabRepository labs;
    private final Clock clock;

    public CatalogueSeeder(CatalogueRepository catalogue, LabRepository labs, Clock clock) {
        this.catalogue = Objects.requireNonNull(catalogue, "catalogue");
        this.labs = Objects.requireNonNull(labs, "labs");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** @return how many courses were added (0 when the catalogue already had some) */
    public int seed(CatalogueSeed seed) {
        Objects.requireNonNull(seed, "seed");
        int added = 0;
        if (catalogue.isEmpty() && !seed.courses().isEmpty()) {
            added = catalogue.seed(seed.courses(), seed.resources());
            labs.seed(seed.labs().stream().map(CatalogueSeed.LabSeed::lab).toList(), List.of());
            log.info(
                    "learning catalogue seeded: {} courses, {} labs",
                    added,
                    seed.labs().size());
        }
        List<LabSlot> slots = new ArrayList<>();
        for (CatalogueSeed.LabSeed lab : seed.labs()) {
            if (labs.lab(lab.lab().id()).isPresent())
                slots.addAll(lab.slots().slots(lab.lab().id(), clock.instant()));
        }
        if (!slots.isEmpty()) labs.seed(List.of(), slots);
        return added;
    }
}
