package dev.baton.learning.commerce;

import dev.baton.core.auth.Principal;
import dev.baton.core.id.Ids;
import dev.baton.learning.Learner;
import dev.baton.learning.LearningException;
import dev.baton.learning.LearningPermissions;
import dev.baton.learning.catalogue.CatalogueService;
import dev.baton.learning.catalogue.Course;
import dev.baton.learning.catalogue.Resource;
import dev.baton.learning.enrolment.LearningService;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/** The cart: courses and resources a learner means to buy, each at most once. */
public final class CommerceService {
    /** A cart holds at most this many lines. */
    public static final int MAX_ITEMS = 50;

    private final CartRepository repository;
    private final CatalogueService catalogue;
    private final LearningService learning;
    private final Clock clock;

    public CommerceService(
            CartRepository repository, CatalogueService catalogue, LearningService learning, Clock clock) {
        this.repository = Objects.requireNonNull(repository, "repository");
        this.catalogue = Objects.requireNonNull(catalogue, "catalogue");
        this.learning = Objects.requireNonNull(learning, "learning");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    public Cart cart(Principal principal) {
        LearningPermissions.require(principal, LearningPermissions.READ);
        return new Cart(repository.items(Learner.of(principal), MAX_ITEMS));
    }

    /**
     * Adds a course or resource to the caller's cart.
     *
     * @throws LearningException not_found for an unknown item; conflict when it is already in the cart, the course
     *     is closed or the caller is already enrolled in it, or the cart is full
     */
    public CartItem add(Principal principal, String itemId, ItemType type) {
        LearningPermissions.require(principal, LearningPermissions.WRITE);
        Objects.requireNonNull(type, "type");
        Learner learner = Learner.of(principal);
        CartItem item = switch (type) {
            case COURSE -> courseLine(learner, catalogue.find(itemId));
            case RESOURCE -> resourceLine(learner, catalogue.findResource(itemId));
        };
        // bounded by a count the database gives; the limit keeps a looping model from filling a cart forever
        if (repository.items(learner, MAX_ITEMS).size() >= MAX_ITEMS) {
            throw LearningException.conflict("Your cart is full (" + MAX_ITEMS + " items).");
        }
        if (!repository.insert(item)) {
            throw LearningException.conflict("'" + item.title() + "' is already in your cart.");
        }
        return item;
    }

    /** @throws LearningException not_found when the item is not in the caller's cart */
    public void remove(Principal principal, String itemId, ItemType type) {
        LearningPermissions.require(principal, LearningPermissions.WRITE);
        if (!repository.remove(Learner.of(principal), type, itemId)) {
            throw LearningException.notFound(type.wireName() + " in your cart", itemId);
        }
    }

    private CartItem courseLine(Learner learner, Course course) {
        if (!course.open()) throw LearningException.conflict("The course '" + course.title() + "' is not on sale.");
        if (learning.isEnrolled(learner, course.id())) {
            throw LearningException.conflict("You are already enrolled in '" + course.title() + "'.");
        }
        return new CartItem(
                Ids.newId(), learner, ItemType.COURSE, course.id(), course.title(), course.priceCents(), now());
    }

    private CartItem resourceLine(Learner learner, Resource resource) {
        return new CartItem(
                Ids.newId(), learner, ItemType.RESOURCE, resource.id(), resource.title(), resource.priceCents(), now());
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }
}
