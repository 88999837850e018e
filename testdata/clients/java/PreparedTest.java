// pgJDBC against a server: a PreparedStatement with parameters of each
// type. Prints what the driver hands back (class and value) so the output
// can be compared between gpusql and PostgreSQL.
// Usage: java -cp postgresql.jar PreparedTest.java JDBC_URL basic|dates
// (dates: java.sql.Date parameters, which pgJDBC sends as text like
// "1996-02-28 +00" with an unspecified type).
import java.math.BigDecimal;
import java.sql.*;

public class PreparedTest {
    static void print(ResultSet rs) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        StringBuilder h = new StringBuilder(" ");
        for (int i = 1; i <= md.getColumnCount(); i++) {
            // The java.sql.Types code: getColumnTypeName would make pgJDBC
            // query the catalog (MetadataTest does that).
            h.append(' ').append(md.getColumnLabel(i)).append(':').append(md.getColumnType(i));
        }
        System.out.println(h);
        while (rs.next()) {
            StringBuilder b = new StringBuilder("   ");
            for (int i = 1; i <= md.getColumnCount(); i++) {
                Object o = rs.getObject(i);
                b.append(' ').append(o == null ? "null" : o.getClass().getSimpleName() + "(" + o + ")");
            }
            System.out.println(b);
        }
        rs.close();
    }

    interface Binder {
        void bind(PreparedStatement ps) throws SQLException;
    }

    static void run(Connection c, String label, String sql, Binder b) throws SQLException {
        System.out.println(label);
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            b.bind(ps);
            print(ps.executeQuery());
        } catch (SQLException e) {
            System.out.println("  ERROR " + e.getSQLState() + " " + e.getMessage().split("\n")[0]);
        }
    }

    public static void main(String[] args) throws Exception {
        boolean dates = args.length > 1 && args[1].equals("dates");
        try (Connection c = DriverManager.getConnection(args[0])) {
            if (dates) {
                run(c, "date", "SELECT ?::date + 1 AS v", ps -> ps.setDate(1, Date.valueOf("1996-02-28")));
                run(c, "date column", "SELECT count(*) FROM lineitem WHERE l_shipdate >= ?", ps -> ps.setDate(1, Date.valueOf("1995-01-01")));
                return;
            }
            run(c, "int", "SELECT ? + 1 AS v", ps -> ps.setInt(1, 41));
            run(c, "bigint", "SELECT ? * 2 AS v", ps -> ps.setLong(1, 1L << 40));
            run(c, "double", "SELECT ? / 4 AS v", ps -> ps.setDouble(1, 1.5));
            run(c, "numeric", "SELECT ? + 0.25 AS v", ps -> ps.setBigDecimal(1, new BigDecimal("10.50")));
            run(c, "text", "SELECT upper(?) AS v", ps -> ps.setString(1, "gpu"));
            run(c, "bool", "SELECT NOT ? AS v", ps -> ps.setBoolean(1, true));
            run(c, "date as text", "SELECT CAST(? AS date) + 1 AS v", ps -> ps.setString(1, "1996-02-28"));
            run(c, "timestamp", "SELECT ?::timestamp AS v", ps -> ps.setTimestamp(1, Timestamp.valueOf("2024-01-02 03:04:05")));
            run(c, "null", "SELECT ?::integer IS NULL AS v", ps -> ps.setNull(1, Types.INTEGER));
            String where = "SELECT l_orderkey, l_linenumber, l_quantity, l_shipdate, l_shipmode FROM lineitem"
                    + " WHERE l_orderkey < ? AND l_shipdate >= CAST(? AS date) AND l_shipmode = ? AND l_quantity > ?"
                    + " ORDER BY l_orderkey, l_linenumber";
            Binder whereArgs = ps -> {
                ps.setLong(1, 300);
                ps.setString(2, "1995-01-01");
                ps.setString(3, "AIR");
                ps.setBigDecimal(4, new BigDecimal("20.5"));
            };
            // The same statement six times: pgJDBC switches to a named
            // server-side statement (and binary results) after
            // prepareThreshold (5) executions.
            try (PreparedStatement ps = c.prepareStatement(where)) {
                for (int i = 1; i <= 6; i++) {
                    whereArgs.bind(ps);
                    System.out.println("where, execution " + i);
                    print(ps.executeQuery());
                }
            }
            run(c, "aggregate", "SELECT l_returnflag, count(*), sum(l_quantity), min(l_shipdate) FROM lineitem"
                    + " WHERE l_discount >= ? GROUP BY l_returnflag ORDER BY 1",
                    ps -> ps.setBigDecimal(1, new BigDecimal("0.05")));
        }
    }
}
