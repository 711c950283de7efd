package dev.baton.tasks.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.auth.Principal;
import dev.baton.tasks.TaskModule;
import dev.baton.tasks.support.Principals;
import dev.baton.tasks.support.TestDatabases;
import dev.baton.testkit.time.SettableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What {@link TaskService} promises over a real database; run once per dialect by its subclasses. Each test
 * works as fresh users, so tests share one migrated database without seeing each other's tasks.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class TaskServiceContract {
    /** A Wednesday; its ISO week runs from Monday 2026-11-16 to Sunday 2026-11-22. */
    static final Instant NOW = Instant.parse("2026-11-18T10:00:00Z");

    private TestDatabases.Opened opened;
    final SettableClock clock = new SettableClock(NOW);
    TaskService service;
    Principal alice;

    abstract TestDatabases.Opened open() throws Exception;

    @BeforeAll
    void openDatabase() throws Exception {
        opened = open();
        service = TaskModule.create(opened.database(), clock).service();
    }

    @AfterAll
    void closeDatabase() throws Exception {
        if (opened != null) opened.close();
    }

    @BeforeEach
    void newUser() {
        clock.set(NOW);
        alice = Principals.newUser();
    }

    @Test
    void a_created_task_reads_back_with_all_its_fields() {
        Task created = service.create(
                alice,
                NewTask.of("  Write report  ", "Quarterly numbers", "2026-11-20", "high", List.of("Work", " urgent ")));

        Task read = service.get(alice, created.id());

        assertThat(read).isEqualTo(created);
        assertThat(read.title()).isEqualTo("Write report");
        assertThat(read.description()).isEqualTo("Quarterly numbers");
        assertThat(read.dueAt()).isEqualTo(Instant.parse("2026-11-20T23:59:59Z"));
        assertThat(read.priority()).isEqualTo(TaskPriority.HIGH);
        assertThat(read.tags()).containsExactly("work", "urgent");
        assertThat(read.status()).isEqualTo(TaskStatus.OPEN);
        assertThat(read.createdAt()).isEqualTo(NOW).isEqualTo(read.updatedAt());
        assertThat(read.owner()).isEqualTo(new TaskOwner("default", alice.userId()));
    }

    @Test
    void a_minimal_task_defaults_to_medium_priority_without_due_date_or_tags() {
        Task created = service.create(alice, NewTask.titled("Buy milk"));

        Task read = service.get(alice, created.id());

        assertThat(read.priority()).isEqualTo(TaskPriority.MEDIUM);
        assertThat(read.dueAt()).isNull();
        assertThat(read.description()).isNull();
        assertThat(read.tags()).isEmpty();
    }

    @Test
    void sub_millisecond_clock_times_read_back_unchanged() {
        clock.set(Instant.parse("2026-11-18T10:00:00.123456789Z"));
        Task created = service.create(alice, NewTask.of("Precise", null, "2026-11-19T08:30:00.5+02:00", null, null));

        Task read = service.get(alice, created.id());

        assertThat(read.createdAt()).isEqualTo(Instant.parse("2026-11-18T10:00:00.123Z"));
        assertThat(read.dueAt()).isEqualTo(Instant.parse("2026-11-19T06:30:00.500Z"));
    }

    @Test
    void listing_defaults_to_open_tasks_and_filters_by_status() {
        Task open = service.create(alice, NewTask.titled("Open one"));
        Task done = service.create(alice, NewTask.titled("Done one"));
        service.complete(alice, done.id());

        assertThat(ids(service.list(alice, TaskFilter.OPEN))).containsExactly(open.id());
        assertThat(ids(service.list(alice, TaskFilter.of("completed", null, null, null))))
                .containsExactly(done.id());
        assertThat(ids(service.list(alice, TaskFilter.of("all", null, null, null))))
                .containsExactlyInAnyOrder(open.id(), done.id());
    }

    @Test
    void listing_filters_by_priority() {
        Task high = service.create(alice, NewTask.of("High", null, null, "high", null));
        service.create(alice, NewTask.of("Low", null, null, "low", null));
        service.create(alice, NewTask.titled("Medium"));

        assertThat(ids(service.list(alice, TaskFilter.of(null, "high", null, null))))
                .containsExactly(high.id());
    }

    @Test
    void listing_filters_by_due_window() {
        Task today = service.create(alice, NewTask.of("Today, end of day", null, "2026-11-18", null, null));
        Task earlierToday = service.create(alice, NewTask.of("Today, past", null, "2026-11-18T08:00:00Z", null, null));
        Task sunday = service.create(alice, NewTask.of("Sunday", null, "2026-11-22", null, null));
        Task nextMonday = service.create(alice, NewTask.of("Next Monday", null, "2026-11-23T00:00:00Z", null, null));
        Task mondayStart = service.create(alice, NewTask.of("Monday start", null, "2026-11-16T00:00:00Z", null, null));
        Task lastSunday = service.create(alice, NewTask.of("Last Sunday", null, "2026-11-15", null, null));
        service.create(alice, NewTask.titled("Undated"));
        Task doneLate = service.create(alice, NewTask.of("Done, was due long ago", null, "2026-11-01", null, null));
        service.complete(alice, doneLate.id());

        assertThat(ids(service.list(alice, TaskFilter.of(null, null, "today", null))))
                .containsExactly(earlierToday.id(), today.id());
        assertThat(ids(service.list(alice, TaskFilter.of(null, null, "this_week", null))))
                .containsExactly(mondayStart.id(), earlierToday.id(), today.id(), sunday.id());
        assertThat(ids(service.list(alice, TaskFilter.of(null, null, "overdue", null))))
                .containsExactly(lastSunday.id(), mondayStart.id(), earlierToday.id());
        assertThat(ids(service.list(alice, TaskFilter.of("all", null, "overdue", null))))
                .as("a completed task is never overdue")
                .doesNotContain(doneLate.id())
                .hasSize(3);
        assertThat(service.list(alice, TaskFilter.of("completed", null, "overdue", null)))
                .isEmpty();
        assertThat(ids(service.list(alice, TaskFilter.of(null, null, "2026-11-23", null))))
                .containsExactly(nextMonday.id());
        assertThat(ids(service.list(alice, TaskFilter.of("all", null, "2026-11-01", null))))
                .containsExactly(doneLate.id());
    }

    @Test
    void this_week_on_a_sunday_still_means_the_week_that_began_on_monday() {
        Task monday = service.create(alice, NewTask.of("Monday", null, "2026-11-16", null, null));
        Task nextMonday = service.create(alice, NewTask.of("Next Monday", null, "2026-11-23", null, null));
        clock.set(Instant.parse("2026-11-22T23:00:00Z"));

        assertThat(ids(service.list(alice, TaskFilter.of("all", null, "this_week", null))))
                .containsExactly(monday.id())
                .doesNotContain(nextMonday.id());
    }

    @Test
    void a_task_becomes_overdue_when_the_clock_passes_its_due_time() {
        Task task = service.create(alice, NewTask.of("Soon", null, "2026-11-18T11:00:00Z", null, null));
        assertThat(service.list(alice, TaskFilter.of(null, null, "overdue", null)))
                .isEmpty();

        clock.advance(Duration.ofHours(2));

        assertThat(ids(service.list(alice, TaskFilter.of(null, null, "overdue", null))))
                .containsExactly(task.id());
    }

    @Test
    void tag_filter_matches_whole_tags_case_insensitively_never_substrings() {
        Task work = service.create(alice, NewTask.of("Work", null, null, null, List.of("Work")));
        service.create(alice, NewTask.of("Homework", null, null, null, List.of("homework")));
        service.create(alice, NewTask.of("Network", null, null, null, List.of("network", "works")));
        Task both = service.create(alice, NewTask.of("Both", null, null, null, List.of("home", "work")));
        service.create(alice, NewTask.of("Quotes", null, null, null, List.of("\"work\"")));

        assertThat(ids(service.list(alice, TaskFilter.of(null, null, null, "WORK"))))
                .containsExactlyInAnyOrder(work.id(), both.id());
        assertThat(service.list(alice, TaskFilter.of(null, null, null, "wor"))).isEmpty();
        assertThat(service.list(alice, TaskFilter.of(null, null, null, "%"))).isEmpty();
    }

    @Test
    void filters_combine() {
        Task match = service.create(alice, NewTask.of("Match", null, "2026-11-18", "high", List.of("work")));
        service.create(alice, NewTask.of("Wrong tag", null, "2026-11-18", "high", List.of("home")));
        service.create(alice, NewTask.of("Wrong priority", null, "2026-11-18", "low", List.of("work")));
        service.create(alice, NewTask.of("Wrong day", null, "2026-11-25", "high", List.of("work")));

        assertThat(ids(service.list(alice, TaskFilter.of("open", "high", "today", "work"))))
                .containsExactly(match.id());
    }

    @Test
    void completing_marks_the_task_completed_and_is_idempotent() {
        Task task = service.create(alice, NewTask.titled("Finish me"));
        clock.advance(Duration.ofMinutes(5));

        Task completed = service.complete(alice, task.id());
        clock.advance(Duration.ofMinutes(5));
        Task again = service.complete(alice, task.id());

        assertThat(completed.status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(completed.updatedAt()).isEqualTo(NOW.plus(Duration.ofMinutes(5)));
        assertThat(again).isEqualTo(completed);
        assertThat(service.get(alice, task.id())).isEqualTo(completed);
    }

    @Test
    void updating_changes_only_the_given_fields_and_can_clear_optional_ones() {
        Task task = service.create(alice, NewTask.of("Draft", "Old notes", "2026-11-20", "low", List.of("writing")));
        clock.advance(Duration.ofMinutes(1));

        Task renamed = service.update(
                alice, task.id(), TaskUpdate.NONE.withTitle(" Final ").withPriority(TaskPriority.HIGH));

        assertThat(renamed.title()).isEqualTo("Final");
        assertThat(renamed.priority()).isEqualTo(TaskPriority.HIGH);
        assertThat(renamed.description()).isEqualTo("Old notes");
        assertThat(renamed.dueAt()).isEqualTo(task.dueAt());
        assertThat(renamed.tags()).containsExactly("writing");
        assertThat(renamed.createdAt()).isEqualTo(NOW);
        assertThat(renamed.updatedAt()).isEqualTo(NOW.plus(Duration.ofMinutes(1)));

        Task cleared = service.update(
                alice,
                task.id(),
                TaskUpdate.NONE.withDescription(null).withDueDate(null).withTags(List.of()));

        assertThat(cleared.description()).isNull();
        assertThat(cleared.dueAt()).isNull();
        assertThat(cleared.tags()).isEmpty();
        assertThat(service.get(alice, task.id())).isEqualTo(cleared);
    }

    @Test
    void an_update_that_changes_nothing_is_refused() {
        Task task = service.create(alice, NewTask.titled("Stay"));

        assertThatThrownBy(() -> service.update(alice, task.id(), TaskUpdate.NONE))
                .isInstanceOfSatisfying(
                        TaskException.class, e -> assertThat(e.code()).isEqualTo("invalid_argument"));
    }

    @Test
    void deleting_removes_the_task() {
        Task task = service.create(alice, NewTask.titled("Delete me"));

        service.delete(alice, task.id());

        assertNotFound(() -> service.get(alice, task.id()));
        assertNotFound(() -> service.delete(alice, task.id()));
        assertThat(service.list(alice, TaskFilter.of("all", null, null, null))).isEmpty();
    }

    @Test
    void titles_must_be_1_to_200_characters_after_trimming() {
        assertInvalid(() -> service.create(alice, NewTask.titled("")), "title must be 1-200 characters");
        assertInvalid(() -> service.create(alice, NewTask.titled("   ")), "title must be 1-200 characters");
        assertInvalid(() -> service.create(alice, NewTask.titled("x".repeat(201))), "(got 201)");

        Task longest = service.create(alice, NewTask.titled("x".repeat(200)));
        assertThat(service.get(alice, longest.id()).title()).hasSize(200);
    }

    @Test
    void bad_priorities_dates_and_filters_are_invalid_arguments() {
        assertInvalid(() -> NewTask.of("t", null, null, "urgent", null), "priority must be one of low, medium, high");
        assertInvalid(() -> NewTask.of("t", null, "next friday", null, null), "dueDate must be an ISO date");
        assertInvalid(() -> NewTask.of("t", null, "2026-02-30", null, null), "dueDate must be an ISO date");
        assertInvalid(() -> NewTask.of("t", null, "2026-13-01", null, null), "dueDate must be an ISO date");
        assertInvalid(() -> NewTask.of("t", "d".repeat(2001), null, null, null), "description must be at most 2000");
        assertInvalid(() -> NewTask.of("t", null, null, null, List.of("a".repeat(41))), "each tag must be 1-40");
        assertInvalid(
                () -> NewTask.of(
                        "t", null, null, null, List.of("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11")),
                "at most 10 tags");
        assertInvalid(() -> TaskFilter.of("done", null, null, null), "status must be one of open, completed, all");
        assertInvalid(() -> TaskFilter.of(null, null, "someday", null), "due must be one of today, this_week");
        assertInvalid(() -> service.update(alice, "any", TaskUpdate.NONE.withTitle("")), "title must be 1-200");
    }

    @Test
    void another_user_can_neither_see_nor_change_nor_delete_a_task() {
        Task task = service.create(alice, NewTask.of("Alice's secret", null, "2026-11-18", "high", List.of("x")));
        Principal bob = Principals.newUser();

        assertNotFound(() -> service.get(bob, task.id()));
        assertNotFound(() -> service.complete(bob, task.id()));
        assertNotFound(() -> service.update(bob, task.id(), TaskUpdate.NONE.withTitle("Bob was here")));
        assertNotFound(() -> service.delete(bob, task.id()));
        assertThat(service.list(bob, TaskFilter.of("all", null, null, null))).isEmpty();
        assertThat(service.list(bob, TaskFilter.of(null, "high", "today", "x"))).isEmpty();

        assertThat(service.get(alice, task.id())).isEqualTo(task);
    }

    @Test
    void the_same_user_id_in_another_tenant_is_another_owner() {
        Task task = service.create(alice, NewTask.titled("Tenant-scoped"));
        Principal twin = Principals.user(alice.userId(), "other-tenant", Set.of(TaskService.READ, TaskService.WRITE));

        assertNotFound(() -> service.get(twin, task.id()));
        assertThat(service.list(twin, TaskFilter.OPEN)).isEmpty();
    }

    @Test
    void not_found_for_a_foreign_task_reads_exactly_like_a_missing_one() {
        Task task = service.create(alice, NewTask.titled("Mine"));
        Principal bob = Principals.newUser();

        TaskException foreign = catchTaskException(() -> service.get(bob, task.id()));
        TaskException missing = catchTaskException(() -> service.get(bob, "01900000-0000-7000-8000-000000000000"));

        assertThat(foreign.code()).isEqualTo(missing.code()).isEqualTo("not_found");
        assertThat(foreign.getMessage())
                .isEqualTo(missing.getMessage().replace("01900000-0000-7000-8000-000000000000", task.id()));
    }

    @Test
    void a_principal_without_write_permission_is_refused_and_nothing_changes() {
        Task task = service.create(alice, NewTask.titled("Keep me"));
        Principal readOnly = Principals.user(alice.userId(), alice.tenantId(), Set.of(TaskService.READ));

        assertDenied(() -> service.create(readOnly, NewTask.titled("Sneaky")));
        assertDenied(() -> service.complete(readOnly, task.id()));
        assertDenied(() -> service.update(readOnly, task.id(), TaskUpdate.NONE.withTitle("Changed")));
        assertDenied(() -> service.delete(readOnly, task.id()));

        assertThat(service.list(readOnly, TaskFilter.of("all", null, null, null)))
                .containsExactly(task);
    }

    @Test
    void a_principal_without_read_permission_cannot_list_or_get() {
        Task task = service.create(alice, NewTask.titled("Hidden"));
        Principal writeOnly = Principals.user(alice.userId(), alice.tenantId(), Set.of(TaskService.WRITE));

        assertDenied(() -> service.list(writeOnly, TaskFilter.OPEN));
        assertDenied(() -> service.get(writeOnly, task.id()));
    }

    static List<String> ids(List<Task> tasks) {
        return tasks.stream().map(Task::id).toList();
    }

    static void assertNotFound(Runnable call) {
        assertThat(catchTaskException(call).code()).isEqualTo("not_found");
    }

    static void assertDenied(Runnable call) {
        assertThat(catchTaskException(call).code()).isEqualTo("permission_denied");
    }

    static void assertInvalid(Runnable call, String messagePart) {
        TaskException e = catchTaskException(call);
        assertThat(e.code()).isEqualTo("invalid_argument");
        assertThat(e.getMessage()).contains(messagePart);
    }

    static TaskException catchTaskException(Runnable call) {
        try {
            call.run();
        } catch (TaskException e) {
            return e;
        }
        throw new AssertionError("expected a TaskException");
    }
}
