package dev.baton.tasks.domain;

import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Where tasks are kept. Every method is scoped to one owner: a task of another owner is simply not there.
 */
public interface TaskRepository {

    void insert(Task task);

    Optional<Task> find(TaskOwner owner, String id);

    List<Task> find(TaskQuery query);

    /**
     * Reads the owner's task, applies {@code change} and stores the result, atomically.
     *
     * @return the stored task, or empty when the owner has no such task
     */
    Optional<Task> update(TaskOwner owner, String id, UnaryOperator<Task> change);

    /** @return whether the owner had such a task */
    boolean delete(TaskOwner owner, String id);
}
