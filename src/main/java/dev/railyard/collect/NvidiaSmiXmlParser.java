package dev.railyard.collect;

import dev.railyard.model.Gpu;
import dev.railyard.model.GpuInventory.NvmlSystem;
import dev.railyard.model.Reading;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.xml.sax.ErrorHandler;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads nvidia-smi -q -x output into the inventory model. The document names a DTD (nvsmi_device_v12.dtd) that
 * is not on disk and must never be fetched: external DTDs and entities are switched off, so parsing a capture
 * does no I/O beyond the text given.
 */
public final class NvidiaSmiXmlParser {

    private final String source;

    /** {@code source} prefixes every element path in failed readings, e.g. "railyard/nvidia-smi-q.xml". */
    public NvidiaSmiXmlParser(String source) {
        this.source = source;
    }

    public NvidiaSmiXml parse(String xml) throws NvidiaSmiXmlException {
        Element root = document(xml).getDocumentElement();
        if (!root.getTagName().equals("nvidia_smi_log")) {
            throw new NvidiaSmiXmlException("root element is <" + root.getTagName() + ">, not <nvidia_smi_log>", null);
        }
        NvidiaSmiXmlNode log = new NvidiaSmiXmlNode(root, source + ":/nvidia_smi_log");
        List<Gpu> gpus = new ArrayList<>();
        for (NvidiaSmiXmlNode gpu : log.children("gpu")) {
            gpus.add(NvidiaSmiXmlGpu.read(gpus.size(), gpu));
        }
        return new NvidiaSmiXml(system(log), gpus);
    }

    /** Driver and CUDA versions; -q -x has no NVML version, so that one is left blank as unknown. */
    private static Reading<NvmlSystem> system(NvidiaSmiXmlNode log) {
        Reading<String> driver = log.text("driver_version");
        Reading<String> cuda = log.text("cuda_version");
        if (!(driver instanceof Reading.Present<String>(String d))) return driver.map(x -> null);
        return Reading.of(new NvmlSystem(d, cuda.orElse(""), ""));
    }

    private static Document document(String xml) throws NvidiaSmiXmlException {
        try {
            DocumentBuilder builder = factory().newDocumentBuilder();
            builder.setErrorHandler(new Strict());
            return builder.parse(new InputSource(new StringReader(xml)));
        } catch (SAXParseException e) {
            throw new NvidiaSmiXmlException("line " + e.getLineNumber() + ", column " + e.getColumnNumber() + ": "
                    + e.getMessage(), e);
        } catch (SAXException | IOException e) {
            throw new NvidiaSmiXmlException(String.valueOf(e.getMessage()), e);
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException("the JDK's XML parser lacks a standard feature", e);
        }
    }

    private static DocumentBuilderFactory factory() throws ParserConfigurationException {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        // The DOCTYPE line stays allowed (every nvidia-smi writes one) but its DTD is neither loaded nor resolved.
        f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        f.setFeature("http://xml.org/sax/features/external-general-entities", false);
        f.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
        f.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        f.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
        f.setValidating(false);
        f.setNamespaceAware(false);
        f.setExpandEntityReferences(false);
        f.setXIncludeAware(false);
        return f;
    }

    /** Errors end the parse with the parser's line and column; the default handler would print to stderr. */
    private static final class Strict implements ErrorHandler {
        @Override
        public void warning(SAXParseException e) {
            // warnings (an unused DTD feature) do not make the document unreadable
        }

        @Override
        public void error(SAXParseException e) throws SAXException {
            throw e;
        }

        @Override
        public void fatalError(SAXParseException e) throws SAXException {
            throw e;
        }
    }
}
