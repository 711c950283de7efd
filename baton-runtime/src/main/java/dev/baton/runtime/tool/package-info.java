/**
 * Plain Java methods as tools (DESIGN §11): annotate public methods with {@link dev.baton.runtime.tool.BatonTool},
 * hand the objects to {@link dev.baton.runtime.tool.AnnotatedTools#from(Object...)}, and add the resulting
 * {@link dev.baton.core.tool.ToolSource} to the catalogue. The argument schema is generated from the parameter types,
 * the caller is injected, and the core's executor checks permissions and validates arguments before the method runs.
 *
 * <pre>{@code
 * public final class NoteTools {
 *     private final NoteService notes;
 *
 *     @BatonTool(description = "Add a note to the user's notebook. Returns the note.",
 *                permissions = "notes:write:self")
 *     public Note addNote(Principal caller,
 *                         @Param(description = "The note's text, 1-2000 characters") String text,
 *                         Optional<List<String>> tags) {
 *         return notes.add(caller, text, tags.orElse(List.of()));   // a NoteException reaches the model as is
 *     }
 *
 *     @BatonTool(description = "Delete one of the user's notes.", permissions = "notes:write:self",
 *                destructive = true, timeout = "5s")
 *     public void deleteNote(Principal caller, @Param(description = "The note's id") String noteId) {
 *         notes.delete(caller, noteId);                               // the model reads {"ok":true}
 *     }
 * }
 *
 * ToolSource tools = AnnotatedTools.named("notes", new NoteTools(noteService));
 * ToolCatalog catalog = new ToolCatalog(List.of(tools, otherSources...));
 * }</pre>
 *
 * <p>The model sees {@code addNote} with {@code {"type":"object","properties":{"text":{"type":"string",
 * "description":"..."},"tags":{"type":"array","items":{"type":"string"}}},"required":["text"],
 * "additionalProperties":false}}; {@code caller} is never part of it. Parameter names come from {@code -parameters},
 * which the Baton build turns on; a library user's build must too, or name each parameter with
 * {@link dev.baton.runtime.tool.Param#name()}.
 *
 * <p>Argument types: primitives and their boxes, String, BigDecimal, BigInteger, UUID, URI, java.time values, enums,
 * records of these (nested objects), List, Set, Collection and arrays of these, and Optional of these. Anything else
 * (a Map, a plain class, Object, a type variable) is refused when the source is built, because its schema could not
 * be closed or would not agree with how Jackson reads it.
 */
package dev.baton.runtime.tool;
