package dev.baton.runtime.tool;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a public method as a tool the model may call. {@link AnnotatedTools#from(Object...)} turns every such method
 * of the objects it is given into a {@link dev.baton.core.tool.Tool}: the parameters become the tool's JSON Schema, a
 * {@link dev.baton.core.tool.ToolContext} or {@link dev.baton.core.auth.Principal} parameter is filled with the caller
 * (never by the model), and the return value becomes the tool's result.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface BatonTool {

    /** The name the model calls the tool by, matching {@code [a-zA-Z0-9_-]{1,64}}; the method's name when empty. */
    String name() default "";

    /** What the tool does and when to use it, written for the model. Must not be blank. */
    String description();

    /** The permissions the caller must hold; the executor refuses the call before the method runs otherwise. */
    String[] permissions() default {};

    /**
     * Whether the tool changes or deletes something that cannot simply be undone: it becomes the tool definition's
     * {@link dev.baton.core.tool.ToolDefinition#destructive()}, so under the default approval policy
     * ({@code when_destructive}) each call waits for the user's approval before it runs.
     */
    boolean destructive() default false;

    /**
     * Whether calling the tool twice with the same arguments has the effect of calling it once (it only reads, or
     * sets a value rather than adding one). A call that was running when its instance died is then run again by the
     * instance that takes the turn over; any other such call's outcome is reported to the model as unknown.
     */
    boolean idempotent() default false;

    /**
     * Whether the tool's effect is writes to Baton's own database, made through its {@code Database} on the thread the
     * method runs on (a domain of {@code baton-domain} gets it as {@code DomainContext.database()}). With durable turns
     * on a database, those writes and the record of the call (its {@code tool_calls} row and the turn's checkpoint)
     * commit in one transaction: after a crash the effect is either recorded (the turn goes on with its result) or
     * absent (the call is run again), never done twice. A call that fails (throws) keeps none of its writes. Keep such
     * a method short: it holds a database connection while it runs (and, on SQLite, the write lock). Effects outside
     * the database (an e-mail, a call to another service) are not undone by a rollback: such a tool is not
     * transactional. Without durable turns the method runs as any other.
     */
    boolean transactional() default false;

    /**
     * How long one call may run: ISO-8601 ({@code "PT30S"}) or a short form ({@code "500ms"}, {@code "10s"},
     * {@code "2m"}). Empty means the agent's tool timeout.
     */
    String timeout() default "";
}
