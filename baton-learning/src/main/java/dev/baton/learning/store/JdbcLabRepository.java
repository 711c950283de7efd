package dev.baton.learning.store;

import dev.baton.learning.Learner;
import dev.baton.learning.labs.Booking;
import dev.baton.learning.labs.BookingOutcome;
import dev.baton.learning.labs.Lab;
import dev.baton.learning.labs.LabRepository;
import dev.baton.learning.labs.LabSlot;
import dev.baton.store.jdbc.ColumnCodec;
import dev.baton.store.jdbc.Database;
import dev.baton.store.jdbc.OwnedRows.Param;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Labs, slots and bookings in {@code learning_labs}, {@code learning_lab_slots} and {@code learning_bookings}.
 *
 * <p>A booking takes its seat with one conditional update ({@code booked = booked + 1 WHERE booked < capacity}) in
 * the same transaction as the booking row: on PostgreSQL the update locks the slot's row, so concurrent bookers of
 * one slot take turns and each sees the seats the others took; on SQLite write transactions run one at a time. The
 * unique key (tenant, user, slot) refuses a second seat for the same learner even when both requests race.
 */
public final class JdbcLabRepository implements LabRepository {
    private static final String SLOT_COLUMNS = "s.id, s.lab_id, s.starts_at, s.ends_at, s.capacity, s.booked";

    private final Database db;
    private final ColumnCodec codec;

    public JdbcLabRepository(Database db) {
        this.db = Objects.requireNonNull(db, "db");
        this.codec = db.columns();
    }

    @Override
    public List<Lab> labs() {
        return Sql.list(
                db,
                "SELECT id, name, course_id, location FROM learning_labs ORDER BY name, id",
                List.of(),
                JdbcLabRepository::lab);
    }

    @Override
    public Optional<Lab> lab(String id) {
        return Sql.one(
                db,
                "SELECT id, name, course_id, location FROM learning_labs WHERE id = ?",
                List.of(Param.text(id)),
                JdbcLabRepository::lab);
    }

    @Override
    public List<LabSlot> slots(String labId, Instant from, int limit) {
        return Sql.list(
                db,
                "SELECT " + SLOT_COLUMNS + " FROM learning_lab_slots s WHERE s.lab_id = ? AND s.starts_at >= ?"
                        + " ORDER BY s.starts_at LIMIT ?",
                List.of(Param.text(labId), (ps, i) -> codec.setInstant(ps, i, from), Sql.integer(limit)),
                this::slot);
    }

    @Override
    public Optional<LabSlot> slot(String labId, Instant startsAt) {
        return Sql.one(
                db,
                "SELECT " + SLOT_COLUMNS + " FROM learning_lab_slots s WHERE s.lab_id = ? AND s.starts_at = ?",
                List.of(Param.text(labId), (ps, i) -> codec.setInstant(ps, i, startsAt)),
                this::slot);
    }

    @Override
    public BookingOutcome book(Booking b) {
        Learner learner = b.learner();
        try {
            return db.inTransaction(c -> {
                boolean already = Sql.one(
                                c,
                                "SELECT 1 AS one FROM learning_bookings WHERE tenant_id = ? AND user_id = ?"
                                        + " AND slot_id = ?",
                                List.of(
                                        Param.text(learner.tenantId()),
                                        Param.text(learner.userId()),
                                        Param.text(b.slotId())),
                                rs -> 1)
                        .isPresent();
                if (already) return new BookingOutcome.AlreadyBooked();
                int seat = Sql.update(
                        c,
                        "UPDATE learning_lab_slots SET booked = booked + 1 WHERE id = ? AND booked < capacity",
                        List.of(Param.text(b.slotId())));
                if (seat == 0) return new BookingOutcome.Full();
                int inserted = Sql.update(
                        c,
                        "INSERT INTO learning_bookings (id, tenant_id, user_id, slot_id, booked_at)"
                                + " VALUES (?, ?, ?, ?, ?) ON CONFLICT (tenant_id, user_id, slot_id) DO NOTHING",
                        List.of(
                                Param.text(b.id()),
                                Param.text(learner.tenantId()),
                                Param.text(learner.userId()),
                                Param.text(b.slotId()),
                                (ps, i) -> codec.setInstant(ps, i, b.bookedAt())));
                // the same learner booked this slot concurrently and committed first: give the seat back
                if (inserted == 0) throw new Refused(new BookingOutcome.AlreadyBooked());
                return new BookingOutcome.Booked(b);
            });
        } catch (Refused refused) {
            return refused.outcome;
        }
    }

    @Override
    public List<Booking> bookings(Learner learner, Instant now, int limit) {
        return Sql.list(
                db,
                "SELECT b.id, b.tenant_id, b.user_id, b.slot_id, b.booked_at, s.lab_id, s.starts_at, s.ends_at"
                        + " FROM learning_bookings b JOIN learning_lab_slots s ON s.id = b.slot_id"
                        + " WHERE b.tenant_id = ? AND b.user_id = ? AND s.ends_at > ? ORDER BY s.starts_at, b.id LIMIT ?",
                List.of(
                        Param.text(learner.tenantId()),
                        Param.text(learner.userId()),
                        (ps, i) -> codec.setInstant(ps, i, now),
                        Sql.integer(limit)),
                rs -> new Booking(
                        rs.getString("id"),
                        new Learner(rs.getString("tenant_id"), rs.getString("user_id")),
                        rs.getString("lab_id"),
                        rs.getString("slot_id"),
                        codec.getInstant(rs, "starts_at"),
                        codec.getInstant(rs, "ends_at"),
                        codec.getInstant(rs, "booked_at")));
    }

    @Override
    public void seed(List<Lab> labs, List<LabSlot> slots) {
        db.inTransaction(c -> {
            for (Lab lab : labs) {
                Sql.update(
                        c,
                        "INSERT INTO learning_labs (id, name, course_id, location) VALUES (?, ?, ?, ?)"
                                + " ON CONFLICT DO NOTHING",
                        List.of(
                                Param.text(lab.id()),
                                Param.text(lab.name()),
                                Param.text(lab.courseId()),
                                Param.text(lab.location())));
            }
            for (LabSlot slot : slots) {
                Sql.update(
                        c,
                        "INSERT INTO learning_lab_slots (id, lab_id, starts_at, ends_at, capacity, booked)"
                                + " VALUES (?, ?, ?, ?, ?, 0) ON CONFLICT DO NOTHING",
                        List.of(
                                Param.text(slot.id()),
                                Param.text(slot.labId()),
                                (ps, i) -> codec.setInstant(ps, i, slot.startsAt()),
                                (ps, i) -> codec.setInstant(ps, i, slot.endsAt()),
                                Sql.integer(slot.capacity())));
            }
            return null;
        });
    }

    private static Lab lab(ResultSet rs) throws SQLException {
        return new Lab(rs.getString("id"), rs.getString("name"), rs.getString("course_id"), rs.getString("location"));
    }

    private LabSlot slot(ResultSet rs) throws SQLException {
        return new LabSlot(
                rs.getString("id"),
                rs.getString("lab_id"),
                codec.getInstant(rs, "starts_at"),
                codec.getInstant(rs, "ends_at"),
                rs.getInt("capacity"),
                rs.getInt("booked"));
    }

    /** Rolls the booking's transaction back (the seat it took included) and says why. */
    private static final class Refused extends RuntimeException {
        private final transient BookingOutcome outcome;

        Refused(BookingOutcome outcome) {
            super(null, null, false, false);
            this.outcome = outcome;
        }
    }
}
