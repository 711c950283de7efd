package dev.baton.learning;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.learning.assessment.AssessmentService;
import dev.baton.learning.catalogue.CatalogueService;
import dev.baton.learning.commerce.CommerceService;
import dev.baton.learning.engagement.EngagementService;
import dev.baton.learning.enrolment.LearningService;
import dev.baton.learning.labs.LabsService;
import dev.baton.learning.navigation.NavigationService;
import dev.baton.learning.seed.CatalogueSeed;
import dev.baton.learning.seed.CatalogueSeeder;
import dev.baton.learning.store.JdbcCartRepository;
import dev.baton.learning.store.JdbcCatalogueRepository;
import dev.baton.learning.store.JdbcEnrolmentRepository;
import dev.baton.learning.store.JdbcGradeRepository;
import dev.baton.learning.store.JdbcLabRepository;
import dev.baton.learning.store.JdbcQuestionRepository;
import dev.baton.learning.tool.PlatformToolSource;
import dev.baton.store.jdbc.Database;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.Objects;

/**
 * The built-in learning domain wired up: open the {@link Database} with {@link #MIGRATIONS} among its extra
 * migration locations, then
 *
 * <pre>{@code
 * Database db = Database.open(url, List.of(LearningModule.MIGRATIONS));
 * LearningModule learning = LearningModule.create(db, Clock.systemUTC());
 * learning.seedCatalogue(LearningModule.demoCatalogue());   // on start; skipped when the catalogue has courses
 * registry.add(learning.platformTools());                  // the nine platform tools
 * learning.learning().enrol(principal, "calculus-1");      // the REST API
 * }</pre>
 */
public final class LearningModule {
    /** The Flyway location of the learning tables (versions V300 and up). */
    public static final String MIGRATIONS = "classpath:db/migration/learning";
    /** The classpath resource of the "learning-platform" agent (YAML). */
    public static final String PLATFORM_AGENT = "agents/learning-platform.yaml";
    /** The bundled demo catalogue (JSON, see {@link CatalogueSeed}). */
    public static final String DEMO_CATALOGUE = "learning/demo-catalogue.json";

    private final CatalogueService catalogue;
    private final LearningService learning;
    private final AssessmentService assessment;
    private final CommerceService commerce;
    private final LabsService labs;
    private final EngagementService engagement;
    private final NavigationService navigation;
    private final PlatformToolSource platformTools;
    private final CatalogueSeeder seeder;

    private LearningModule(Database db, Clock clock) {
        JdbcLabRepository labRows = new JdbcLabRepository(db);
        JdbcCatalogueRepository catalogueRows = new JdbcCatalogueRepository(db);
        this.catalogue = new CatalogueService(catalogueRows);
        this.learning = new LearningService(new JdbcEnrolmentRepository(db), catalogue, clock);
        this.assessment = new AssessmentService(new JdbcGradeRepository(db), catalogue, learning, clock);
        this.commerce = new CommerceService(new JdbcCartRepository(db), catalogue, learning, clock);
        this.labs = new LabsService(labRows, clock);
        this.engagement = new EngagementService(new JdbcQuestionRepository(db), catalogue, learning, clock);
        this.navigation = new NavigationService();
        this.platformTools =
                new PlatformToolSource(catalogue, learning, assessment, commerce, labs, engagement, navigation);
        this.seeder = new CatalogueSeeder(catalogueRows, labRows, clock);
    }

    /**
     * @param database opened with {@link #MIGRATIONS}
     * @param clock stamps every record and decides which lab slots are still ahead
     */
    public static LearningModule create(Database database, Clock clock) {
        return new LearningModule(Objects.requireNonNull(database, "database"), Objects.requireNonNull(clock, "clock"));
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

    /** The bundled demo catalogue: a dozen courses across subjects, resources, and three labs with slots. */
    public static CatalogueSeed demoCatalogue() {
        return CatalogueSeed.parse(resource(DEMO_CATALOGUE));
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

    /** The nine platform tools, for the tool catalogue. */
    public PlatformToolSource platformTools() {
        return platformTools;
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
