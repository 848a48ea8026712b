import { merge, of, type Table } from './known-table.ts';

/**
 * The knowledge table of Maven coordinates (pom.xml, build.gradle): the JVM libraries that say
 * something about a system's shape.
 */
export const MAVEN: Table = merge(
  of('framework', {
    'org.springframework.boot:spring-boot-starter-web': 'Spring Boot',
    'org.springframework.boot:spring-boot-starter-webflux': 'Spring Boot',
    'io.quarkus:*': 'Quarkus',
    'io.micronaut:*': 'Micronaut',
  }),
  of('orm', {
    'org.springframework.boot:spring-boot-starter-data-jpa': 'Spring Data JPA',
    'org.hibernate.orm:hibernate-core': 'Hibernate',
    'org.hibernate:hibernate-core': 'Hibernate',
  }),
  of('migrations', { 'org.flywaydb:*': 'Flyway', 'org.liquibase:*': 'Liquibase' }),
  of('store', {
    'org.postgresql:postgresql': 'PostgreSQL',
    'com.mysql:mysql-connector-j': 'MySQL',
    'mysql:mysql-connector-java': 'MySQL',
    'com.h2database:h2': 'H2',
    'org.xerial:sqlite-jdbc': 'SQLite',
    'org.springframework.boot:spring-boot-starter-data-mongodb': 'MongoDB',
    'org.springframework.kafka:spring-kafka': 'Kafka',
    'org.apache.kafka:*': 'Kafka',
  }),
  of('cache', { 'org.springframework.boot:spring-boot-starter-data-redis': 'Redis' }),
  of('service', {
    'com.stripe:stripe-java': 'Stripe|payments',
    'com.twilio.sdk:twilio': 'Twilio|SMS',
    'com.sendgrid:sendgrid-java': 'SendGrid|email',
    'software.amazon.awssdk:*': 'AWS|cloud services',
    'com.amazonaws:*': 'AWS|cloud services',
    'io.sentry:*': 'Sentry|error reporting',
    'com.slack.api:*': 'Slack|messages',
  }),
  of('testing', {
    'org.junit.jupiter:*': 'JUnit',
    'junit:junit': 'JUnit',
    'org.springframework.boot:spring-boot-starter-test': 'Spring Boot Test',
    'org.mockito:*': 'Mockito',
  }),
);
