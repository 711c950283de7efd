package dev.baton.tasks.support;

import dev.baton.tasks.domain.Task;
import dev.baton.tasks.domain.TaskOwner;
import dev.baton.tasks.domain.TaskQuery;
import dev.baton.tasks.domain.TaskRepository;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/** For tests that only read tool definitions: any call to it is a bug in the test. */
public final class UnusedTaskRepository implements TaskRepository {
    @Override
    public void insert(Task task) {
        throw new AssertionError("not used");
    }

    @Override
    public Optional<Task> find(TaskOwner owner, String id) {
        throw new AssertionError("not used");
    }

    @Override
    public List<Task> find(TaskQuery query) {
        throw new AssertionError("not used");
    }

    @Override
    public Optional<Task> update(TaskOwner owner, String id, UnaryOperator<Task> change) {
        throw new AssertionError("not used");
    }

    @Override
    public boolean delete(TaskOwner owner, String id) {
        throw new AssertionError("not used");
    }
}
