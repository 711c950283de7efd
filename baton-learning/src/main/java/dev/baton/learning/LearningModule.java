package dev.baton.learning;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.core.conversation.ConversationStore;
import dev.baton.core.hook.ModuleFactory;
import dev.baton.learning.agent.MemoryGuidanceModule;
import dev.baton.learning.assessment.AssessmentService;
import dev.baton.learning.catalogue.CatalogueService;
import dev.baton.learning.commerce.CommerceService;
import dev.baton.learning.content.ContentDelivery;
import dev.baton.learning.content.ContentGenerator;
import dev.baton.learning.content.ContentJobs;
import dev.baton.learning.content.ContentWorker;
import dev.baton.learning.engagement.EngagementService;
import dev.baton.learning.enrolment.LearningService;
import dev.baton.learning.labs.LabsService;
import dev.baton.learning.library.LibrarySeed;
import dev.baton.learning.library.LibraryService;
import dev.baton.learning.memory.ExpiredConversations;
import dev.baton.learning.memory.LearnerConversations;
import dev.baton.learning.memory.MemoryService;
import dev.baton.learning.memory.RetentionJob;
import dev.baton.learning.navigation.NavigationService;
import dev.baton.learning.progress.ProgressService;
import dev.baton.learning.seed.CatalogueSeed;
import dev.baton.learning.seed.CatalogueSeeder;
import dev.baton.learning.store.JdbcAgentConversations;
import dev.baton.learning.store.JdbcCartRepository;
import dev.baton.learning.store.JdbcCatalogueRepository;
import dev.baton.learning.store.JdbcContentJobRepository;
import dev.baton.learning.store.JdbcEnrolmentRepository;
import dev.baton.learning.store.JdbcGradeRepository;
import dev.baton.learning.store.JdbcLabRepository;
import dev.baton.learning.store.JdbcLibraryRepository;
import dev.baton.learning.store.JdbcMemoryRepository;
import dev.baton.learning.store.JdbcQuestionRepository;
import dev.baton.learning.tool.AgentToolSource;
import dev.baton.learning.tool.PlatformToolSource;
import dev.baton.store.jdbc.Database;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Objects;

/**
 * The built-in learning domain wired up: open the {@link Database} with {@link #MIGRATIONS} among its extra
 * migration locations, then
 *
 * <pre>{@code
 * Database db = Database.open(url, List.of(LearningModule.MIGRATIONS));
 * LearningModule learning = LearningModule.create(db, Clock.systemUTC(), LearningModule.Options.DEFAULTS);
 * learning.seedCatalogue(LearningModule.demoCatalogue());   // on start; skipped when the catalogue has courses
 * learning.seedLibrary(LearningModule.demoLibrary());       // likewise for the topic library
 * builder.tools(learning.platformTools(), learning.agentTools());
 * AutoCloseable jobs = learning.startBackgroundJobs();    // the content worker and the retention purge
 * }</pre>
 */
public final class LearningModule {
    /** The Flyway location of the learning tables (versions V300 and up). */
    public static final String MIGRATIONS = "classpath:db/migration/learning";
    /** The classpath resource of the "learning" agent (YAML). */
    public static final String LEARNING_AGENT = "agents/learning.yaml";
    /** The classpath resource of the "learning-platform" agent (YAML). */
    public static final String PLATFORM_AGENT = "agents/learning-platform.yaml";
    /** The bundled demo catalogue (JSON, see {@link CatalogueSeed}). */
    public static final String DEMO_CATALOGUE = "learning/demo-catalogue.json";
    /** The bundled topic library (JSON, see {@link LibrarySeed}). */
    public static final String DEMO_LIBRARY = "learning/topic-library.json";

    /**
     * How the module is wired beyond its database.
     *
     * @param conversations the runtime's store, to delete the learning agent's conversations on reset and when they
     *     expire; null to leave conversations alone
     * @param agentIds the agents whose conversations the memory owns (reset and retention)
     * @param generator writes content for generateContent; null to queue jobs that no worker of this instance runs
     * @param delivery hands a completed job's material to the conversation that asked for it
     */
    public record Options(
            ConversationStore conversations,
            List<String> agentIds,
            ContentGenerator generator,
            ContentWorker.Settings worker,
            RetentionJob.Settings retention,
            ContentDelivery delivery) {
        public static final Options DEFAULTS = new Options(
                null,
                List.of("learning"),
                null,
                ContentWorker.Settings.DEFAULTS,
                RetentionJob.Settings.DEFAULTS,
                ContentDelivery.NONE);

        public Options {
            agentIds = List.copyOf(agentIds);
            delivery = delivery == null ? ContentDelivery.NONE : delivery;
            Objects.requireNonNull(worker, "worker");
            Objects.requireNonNull(retention, "retention");
        }

        public Options withConversations(ConversationStore store) {
            return new Options(store, agentIds, generator, worker, retention, delivery);
        }

        public Options withGenerator(ContentGenerator newGenerator) {
            return new Options(conversations, agentIds, newGenerator, worker, retention, delivery);
        }

        public Options withWorker(ContentWorker.Settings settings) {
            return new Options(conversations, agentIds, generator, settings, retention, delivery);
        }

        public Options withDelivery(ContentDelivery newDelivery) {
            return new Options(conversations, agentIds, generator, worker, retention, newDelivery);
        }

        public Options withRetention(RetentionJob.Settings settings) {
            return new Options(conversations, agentIds, generator, worker, settings, delivery);
        }
    }

    private final CatalogueService catalogue;
    private final LearningService learning;
    private final AssessmentService assessment;
    private final CommerceService commerce;
    private final LabsService labs;
    private final EngagementService engagement;
    private final NavigationService navigation;
    private final LibraryService library;
    private final MemoryService memory;
    private final ContentJobs content;
    private final ProgressService progress;
    private final PlatformToolSource platformTools;
    private final AgentToolSource agentTools;
    private final CatalogueSeeder seeder;
    private final JdbcLibraryRepository libraryRows;
    private final ContentWorker worker;
    private final RetentionJob retention;

    private LearningModule(Database db, Clock clock, Options options) {
        JdbcLabRepository labRows = new JdbcLabRepository(db);
        JdbcCatalogueRepository catalogueRows = new JdbcCatalogueRepository(db);
        JdbcMemoryRepository memoryRows = new JdbcMemoryRepository(db);
        JdbcContentJobRepository jobRows = new JdbcContentJobRepository(db);
        JdbcAgentConversations conversations = options.conversations() == null
                ? null
                : new JdbcAgentConversations(db, options.conversations(), options.agentIds());
        this.catalogue = new CatalogueService(catalogueRows);
        this.learning = new LearningService(new JdbcEnrolmentRepository(db), catalogue, clock);
        this.assessment = new AssessmentService(new JdbcGradeRepository(db), catalogue, learning, clock);
        this.commerce = new CommerceService(new JdbcCartRepository(db), catalogue, learning, clock);
        this.labs = new LabsService(labRows, clock);
        this.engagement = new EngagementService(new JdbcQuestionRepository(db), catalogue, learning, clock);
        this.navigation = new NavigationService();
        this.libraryRows = new JdbcLibraryRepository(db);
        this.library = new LibraryService(libraryRows);
        this.memory =
                new MemoryService(memoryRows, conversations == null ? LearnerConversations.NONE : conversations, clock);
        this.worker = options.generator() == null
                ? null
                : new ContentWorker(jobRows, options.generator(), clock, options.worker(), options.delivery());
        this.content = worker == null
                ? new ContentJobs(jobRows, clock, () -> {})
                : new ContentJobs(jobRows, clock, worker::wake, options.generator());
        this.progress = new ProgressService(learning, memory, content);
        this.platformTools =
                new PlatformToolSource(catalogue, learning, assessment, commerce, labs, engagement, navigation);
        this.agentTools = new AgentToolSource(library, progress, content, memory);
        this.seeder = new CatalogueSeeder(catalogueRows, labRows, clock);
        this.retention = new RetentionJob(
                memoryRows,
                conversations == null ? ExpiredConversations.NONE : conversations,
                clock,
                options.retention());
    }

    /**
     * @param database opened with {@link #MIGRATIONS}
     * @param clock stamps every record, decides which lab slots are ahead and what has outlived the retention age
     */
    public static LearningModule create(Database database, Clock clock, Options options) {
        return new LearningModule(
                Objects.requireNonNull(database, "database"),
                Objects.requireNonNull(clock, "clock"),
                Objects.requireNonNull(options, "options"));
    }

    /** With {@link Options#DEFAULTS}: no conversations to manage, no content worker. */
    public static LearningModule create(Database database, Clock clock) {
        return create(database, clock, Options.DEFAULTS);
    }

    /**
     * Seeds a catalogue into an empty database and tops up its labs' slots (see {@link CatalogueSeeder}); call once
     * on start.
     *
     * @return how many courses were added
     */
    public int seedCatalogue(CatalogueSeed seed) {
        return seeder.seed(seed);
    }

    /** Seeds a topic library into an empty one; safe when several instances start together. */
    public void seedLibrary(LibrarySeed seed) {
        if (libraryRows.isEmpty() && !seed.entries().isEmpty()) libraryRows.seed(seed.entries());
    }

    /**
     * Starts the content worker (when a generator was given) and the retention purge.
     *
     * @return stops them
     */
    public AutoCloseable startBackgroundJobs() {
        Deque<AutoCloseable> started = new ArrayDeque<>();
        if (worker != null) started.push(worker.start());
        started.push(retention.start());
        return () -> {
            while (!started.isEmpty()) started.pop().close();
        };
    }

    /** The bundled demo catalogue: a dozen courses across subjects, resources, and three labs with slots. */
    public static CatalogueSeed demoCatalogue() {
        return CatalogueSeed.parse(resource(DEMO_CATALOGUE));
    }

    /** The bundled topic library: eight subjects with their topics and modules. */
    public static LibrarySeed demoLibrary() {
        return LibrarySeed.parse(resource(DEMO_LIBRARY));
    }

    /** The module that puts the learning agent's memory into its prompt, for the module registry. */
    public ModuleFactory memoryGuidance() {
        return MemoryGuidanceModule.factory(memory, content);
    }

    public CatalogueService catalogue() {
        return catalogue;
    }

    public LearningService learning() {
        return learning;
    }

    public AssessmentService assessment() {
        return assessment;
    }

    public CommerceService commerce() {
        return commerce;
    }

    public LabsService labs() {
        return labs;
    }

    public EngagementService engagement() {
        return engagement;
    }

    public NavigationService navigation() {
        return navigation;
    }

    public LibraryService library() {
        return library;
    }

    public MemoryService memory() {
        return memory;
    }

    public ContentJobs content() {
        return content;
    }

    public ProgressService progress() {
        return progress;
    }

    /** The content worker, when a generator was given (tests drive it with {@code runOnce}). */
    public ContentWorker worker() {
        return worker;
    }

    /** The retention purge (tests run it once). */
    public RetentionJob retention() {
        return retention;
    }

    /** The nine platform tools, for the tool catalogue. */
    public PlatformToolSource platformTools() {
        return platformTools;
    }

    /** The learning agent's six tools, for the tool catalogue. */
    public AgentToolSource agentTools() {
        return agentTools;
    }

    static JsonNode resource(String name) {
        try (InputStream in = LearningModule.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) throw new IllegalStateException(name + " is missing from the classpath");
            return new ObjectMapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
